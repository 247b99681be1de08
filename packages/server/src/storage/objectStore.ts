import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { fail } from '../errors.js';
import { digestBytes, ObjectTooLargeError, streamDigest, type StoredDigest } from './digest.js';
import type { LocalCredentials } from './localCredentials.js';

/** Object storage: local disk on one machine, S3-compatible on a cluster. */
export interface ObjectStore {
  /** Stores bytes under a key; returns their SHA-256. */
  put(key: string, data: Buffer): Promise<{ sha256: string; size: number }>;
  /** Stores a file of this machine under a key, read as a stream (a large export never sits in memory). */
  putFile(key: string, file: string): Promise<{ size: number }>;
  /** The bytes under a key, or null. */
  get(key: string): Promise<Buffer | null>;
  /** A stream of the bytes under a key, or null. */
  stream(key: string): Promise<{ stream: Readable; size: number } | null>;
  /** Size of the object under a key, or null when there is none. */
  head(key: string): Promise<{ size: number } | null>;
  /**
   * The SHA-256, size and first bytes of the object under a key, or null when there is none; one larger than
   * `maxBytes` is not read (ObjectTooLargeError).
   */
  digest(key: string, maxBytes?: number): Promise<StoredDigest | null>;
  /** A short-lived URL a browser can GET the object with (signed; works without any other credential). */
  presignGet(key: string, ttlSeconds: number): Promise<string>;
  /** Removes the object under a key (nothing when there is none). */
  delete(key: string): Promise<void>;
  /** Resolves when the store answers and takes writes (readiness: the folder is writable, the bucket reachable). */
  probe(signal?: AbortSignal): Promise<void>;
  /**
   * True when the store itself counts each browser upload against its attempt's quota (the local store's
   * gateway); false when only the recording step can (S3-compatible storage takes any PUT its credentials allow).
   */
  readonly countsUploads: boolean;
  /**
   * Bytes the store may still take before the disk it writes to is down to the reserve kept for the database, or
   * null when it keeps none (S3-compatible storage has no such disk). A write that does not fit is refused with 503
   * `storage_full`.
   */
  spaceLeft(): Promise<number | null>;
}

/** Longest object key, in bytes: S3's limit, so a key that works here works on any S3-compatible store. */
export const KEY_MAX_BYTES = 1024;
/** Longest segment of a key, in bytes: the local store keeps each segment as a file name (ext4, XFS: 255). */
export const SEGMENT_MAX_BYTES = 255;

/** A key the stores refuse, with why; `tooLong` tells a length limit from a character or segment rule. */
export class InvalidKeyError extends Error {
  constructor(
    message: string,
    readonly tooLong: boolean,
  ) {
    super(`invalid storage key: ${message}`);
    this.name = 'InvalidKeyError';
  }
}

/**
 * A key that clashes with what the local store holds: it names a folder of other objects (`folder`), or an
 * object sits where the key needs a folder (`parent`). S3 has no folders, but the local store keeps keys as paths.
 */
export class KeyConflictError extends Error {
  constructor(readonly kind: 'folder' | 'parent') {
    super(
      kind === 'folder'
        ? 'the key names a folder that holds other objects'
        : 'a shorter key that this one extends is already an object',
    );
    this.name = 'KeyConflictError';
  }
}

/**
 * Keys are paths of plain segments within the length limits; anything else could escape the store's folder or
 * fail on the file system. Throws InvalidKeyError.
 */
export function checkKey(key: string): string {
  // Lengths first: a regular expression over a huge key costs time for nothing.
  if (key.length > KEY_MAX_BYTES || Buffer.byteLength(key) > KEY_MAX_BYTES)
    throw new InvalidKeyError(`keys are at most ${KEY_MAX_BYTES} bytes`, true);
  if (!/^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/.test(key) || key.split('/').some((s) => s === '.' || s === '..'))
    throw new InvalidKeyError('keys are plain path segments of letters, digits, ".", "_" and "-"', false);
  // Only ASCII is left, so characters are bytes.
  if (key.split('/').some((s) => s.length > SEGMENT_MAX_BYTES))
    throw new InvalidKeyError(`each segment of a key is at most ${SEGMENT_MAX_BYTES} bytes`, true);
  return key;
}

/** Why a key breaks a length limit, or null when it keeps them (other rules aside). */
export function keyLengthProblem(key: string): string | null {
  try {
    checkKey(key);
    return null;
  } catch (err) {
    return err instanceof InvalidKeyError && err.tooLong ? err.message : null;
  }
}

/** Errors of the file system that mean "no object under this key" (a folder, or a file where a folder would be). */
const ABSENT = new Set(['ENOENT', 'ENOTDIR', 'EISDIR']);

const errno = (err: unknown) => (err as NodeJS.ErrnoException).code ?? '';

/** Free bytes of the disk `dir` is on (or the nearest parent that exists: a folder not made yet is on its disk). */
export async function freeBytesOf(dir: string): Promise<number> {
  let at = dir;
  for (;;) {
    try {
      const stat = await fs.promises.statfs(at);
      return stat.bavail * stat.bsize;
    } catch (err) {
      if (errno(err) !== 'ENOENT' || path.dirname(at) === at) throw err;
      at = path.dirname(at);
    }
  }
}

/** Runs `op`; when a folder it writes into is missing (ENOENT), makes it with `makeFolder` and runs `op` once more. */
async function withFolder<T>(op: () => Promise<T>, makeFolder: () => Promise<unknown>): Promise<T> {
  try {
    return await op();
  } catch (err) {
    if (errno(err) !== 'ENOENT') throw err;
  }
  await makeFolder();
  return op();
}

/** Options of the local store. */
export interface LocalStoreOptions {
  /**
   * Bytes of its disk the store leaves free (STORAGE_RESERVE_MB): the SQLite database lives on the same disk
   * (DATA_DIR), and answers must still be saved when evidence has filled the rest. Unset: no check.
   */
  reserveBytes?: number;
}

/** Objects up to this size are digested from one read; larger ones from a stream. */
const WHOLE_READ_MAX_BYTES = 8 * 1024 * 1024;
/** How many recent uploads' digests a process keeps: a minute of frames of a few thousand candidates. */
const RECENT_DIGESTS = 8192;

/** What tells one file apart from another put under the same name later. */
interface FileIdentity {
  ino: number;
  size: number;
  mtimeMs: number;
}

function identityOf(stat: fs.Stats): FileIdentity {
  return { ino: stat.ino, size: stat.size, mtimeMs: stat.mtimeMs };
}

/** The digests of the last `capacity` objects stored, each with the identity of the file it was taken of. */
export class RecentDigests {
  private readonly entries = new Map<string, { identity: FileIdentity; digest: StoredDigest }>();

  constructor(private readonly capacity: number) {}

  remember(key: string, identity: FileIdentity, digest: StoredDigest): void {
    this.entries.delete(key);
    this.entries.set(key, { identity, digest });
    // The oldest first in a Map's order.
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
  }

  /** The digest kept for `key`, when the file there now is the one it was taken of. */
  recall(key: string, now: FileIdentity): StoredDigest | null {
    const kept = this.entries.get(key);
    if (!kept) return null;
    const same =
      kept.identity.ino === now.ino && kept.identity.size === now.size && kept.identity.mtimeMs === now.mtimeMs;
    if (!same) this.entries.delete(key);
    return same ? kept.digest : null;
  }

  forget(key: string): void {
    this.entries.delete(key);
  }
}

/** Object storage in a folder: the embedded default. Writes go to a temp file and are renamed, so a reader never sees half a file. */
export class LocalObjectStore implements ObjectStore {
  /** Bytes this process is writing now, which the disk's free count does not show yet. */
  private pending = 0;
  /** Digests of the objects this process stored lately. */
  private readonly digests = new RecentDigests(RECENT_DIGESTS);
  private readonly reserveBytes: number | undefined;

  constructor(
    private readonly root: string,
    /** Signs URLs and checks credentials for the store's S3-style endpoint (`/storage`); without it nothing is served over HTTP. */
    readonly credentials?: LocalCredentials,
    options: LocalStoreOptions = {},
  ) {
    this.reserveBytes = options.reserveBytes;
  }

  /** Free bytes of the disk the store writes to (its folder, or the nearest parent before the first write). */
  private freeBytes(): Promise<number> {
    return freeBytesOf(this.root);
  }

  async spaceLeft(): Promise<number | null> {
    if (this.reserveBytes === undefined) return null;
    return (await this.freeBytes()) - this.pending - this.reserveBytes;
  }

  /** Refuses (503 storage_full) when `bytes` more would take the disk below the reserve. */
  async ensureRoom(bytes: number): Promise<void> {
    const left = await this.spaceLeft();
    if (left !== null && left < bytes) throw fail('storage_full');
  }

  /**
   * Runs `write` of `bytes` if they fit above the reserve. They count as pending from before the disk is asked, so
   * writes under way together cannot all pass on the same free space.
   */
  private async withRoom<T>(bytes: number, write: () => Promise<T>): Promise<T> {
    if (this.reserveBytes === undefined) return write();
    this.pending += bytes;
    try {
      if ((await this.freeBytes()) - this.pending < this.reserveBytes) throw fail('storage_full');
      return await write();
    } finally {
      this.pending -= bytes;
    }
  }

  get countsUploads(): boolean {
    // Browsers upload only through the gateway, which is served only with credentials.
    return this.credentials !== undefined;
  }

  async probe(): Promise<void> {
    // The folder is made on the first write; before that, its nearest existing parent must take one.
    let dir = this.root;
    while (!fs.existsSync(dir) && path.dirname(dir) !== dir) dir = path.dirname(dir);
    if (!(await fs.promises.stat(dir)).isDirectory()) throw new Error(`${dir} is not a folder`);
    await fs.promises.access(dir, fs.constants.W_OK);
  }

  private file(key: string): string {
    return path.join(this.root, checkKey(key));
  }

  /** Makes the folder a key's file goes in; KeyConflictError when an object stands where a folder must be. */
  private async folderFor(file: string): Promise<void> {
    try {
      await fs.promises.mkdir(path.dirname(file), { recursive: true });
    } catch (err) {
      if (errno(err) === 'ENOTDIR' || errno(err) === 'EEXIST') throw new KeyConflictError('parent');
      throw err;
    }
  }

  /**
   * Runs `place` (which puts a file at `file`), making the file's folder first only when it is missing: most
   * objects go into a folder that already holds others (an attempt's frames), so the folder is not made for each.
   */
  private intoFolder<T>(file: string, place: () => Promise<T>): Promise<T> {
    const placed = () =>
      place().catch((err: unknown) => {
        throw errno(err) === 'ENOTDIR' ? new KeyConflictError('parent') : err;
      });
    return withFolder(placed, () => this.folderFor(file));
  }

  /**
   * A new temp file's path. Temp files live in a folder of the root whose name no key can have ("~" is not a key
   * character) and have short names, so a key whose last segment is as long as a file name may be still has room
   * for its temp file. `made` runs an operation that creates the file, making the folder when it is missing.
   */
  private temp(): { tmp: string; made: <T>(create: () => Promise<T>) => Promise<T> } {
    const dir = path.join(this.root, '~tmp');
    const tmp = path.join(dir, `${process.pid}-${Date.now()}-${randomBytes(6).toString('hex')}`);
    return { tmp, made: (create) => withFolder(create, () => fs.promises.mkdir(dir, { recursive: true })) };
  }

  /** A temp file holding `data`, synced; the caller renames or links it into place. */
  private async writeTemp(data: Buffer): Promise<string> {
    return (await this.writeTempKnown(data)).tmp;
  }

  /** {@link writeTemp}, with what tells the file apart from another put under its name later (see `digest`). */
  private async writeTempKnown(data: Buffer): Promise<{ tmp: string; identity: FileIdentity }> {
    const { tmp, made } = this.temp();
    const handle = await made(() => fs.promises.open(tmp, 'w'));
    try {
      await handle.writeFile(data);
      await handle.sync();
      // A hard link shares the inode, so the object keeps the temp file's identity.
      return { tmp, identity: identityOf(await handle.stat()) };
    } finally {
      await handle.close();
    }
  }

  /** Renames a temp file to the key's `file` (removing it when that fails); a folder of other objects there is a conflict. */
  private async moveIntoPlace(tmp: string, file: string): Promise<void> {
    try {
      await this.intoFolder(file, () => fs.promises.rename(tmp, file));
    } catch (err) {
      await fs.promises.rm(tmp, { force: true });
      if (errno(err) === 'EISDIR' || errno(err) === 'ENOTEMPTY' || errno(err) === 'EEXIST')
        throw new KeyConflictError('folder');
      throw err;
    }
  }

  async put(key: string, data: Buffer): Promise<{ sha256: string; size: number }> {
    const file = this.file(key);
    await this.withRoom(data.length, async () => this.moveIntoPlace(await this.writeTemp(data), file));
    return { sha256: createHash('sha256').update(data).digest('hex'), size: data.length };
  }

  async putFile(key: string, source: string): Promise<{ size: number }> {
    const file = this.file(key);
    // Copied beside the store first (the source may be on another file system), then renamed into place.
    const { tmp, made } = this.temp();
    await this.withRoom((await fs.promises.stat(source)).size, async () => {
      try {
        await made(() => fs.promises.copyFile(source, tmp));
      } catch (err) {
        await fs.promises.rm(tmp, { force: true });
        throw err;
      }
      await this.moveIntoPlace(tmp, file);
    });
    return { size: (await fs.promises.stat(file)).size };
  }

  /**
   * Stores bytes under a key only if the key is free (atomically: a hard link fails on an existing name);
   * false when something is already there. `sha256` is the bytes' own when the caller has it (checked against them).
   */
  async create(key: string, data: Buffer, sha256?: string): Promise<boolean> {
    const file = this.file(key);
    return this.withRoom(data.length, async () => {
      const { tmp, identity } = await this.writeTempKnown(data);
      try {
        await this.intoFolder(file, () => fs.promises.link(tmp, file));
        this.digests.remember(key, identity, digestBytes(data, sha256));
        return true;
      } catch (err) {
        if (errno(err) !== 'EEXIST') throw err;
        if ((await fs.promises.stat(file)).isDirectory()) throw new KeyConflictError('folder');
        return false;
      } finally {
        await fs.promises.unlink(tmp);
      }
    });
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      return await fs.promises.readFile(this.file(key));
    } catch (err) {
      if (ABSENT.has(errno(err))) return null;
      throw err;
    }
  }

  async stream(key: string): Promise<{ stream: Readable; size: number } | null> {
    try {
      const file = this.file(key);
      const stat = await fs.promises.stat(file);
      // A folder is not an object (S3 has none; here they only hold other keys).
      if (!stat.isFile()) return null;
      return { stream: fs.createReadStream(file), size: stat.size };
    } catch (err) {
      if (ABSENT.has(errno(err))) return null;
      throw err;
    }
  }

  async head(key: string): Promise<{ size: number } | null> {
    try {
      const stat = await fs.promises.stat(this.file(key));
      return stat.isFile() ? { size: stat.size } : null;
    } catch (err) {
      if (ABSENT.has(errno(err))) return null;
      throw err;
    }
  }

  /**
   * An upload's digest is taken as its bytes arrive (`create`) and kept, so the recording call that follows the
   * upload does not read the object back; the kept digest is used only while the file is the very one it was
   * taken of (inode, size and modification time), whatever another process deleted or put meanwhile.
   */
  async digest(key: string, maxBytes = Number.POSITIVE_INFINITY): Promise<StoredDigest | null> {
    const file = this.file(key);
    let stat: fs.Stats;
    try {
      stat = await fs.promises.stat(file);
    } catch (err) {
      if (ABSENT.has(errno(err))) return null;
      throw err;
    }
    if (!stat.isFile()) return null;
    if (stat.size > maxBytes) throw new ObjectTooLargeError(stat.size, maxBytes);
    const known = this.digests.recall(key, identityOf(stat));
    if (known) return known;
    // A picture or a short recording is read in one go; a larger object (an export) as a stream.
    if (stat.size > WHOLE_READ_MAX_BYTES) return streamDigest(this, key, maxBytes);
    try {
      return digestBytes(await fs.promises.readFile(file));
    } catch (err) {
      if (ABSENT.has(errno(err))) return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    this.digests.forget(key);
    try {
      await fs.promises.unlink(this.file(key));
    } catch (err) {
      if (!ABSENT.has(errno(err)) && errno(err) !== 'EPERM') throw err;
    }
  }

  async presignGet(key: string, ttlSeconds: number): Promise<string> {
    if (!this.credentials) throw new Error('this local store is not served over HTTP, so it cannot presign');
    return this.credentials.presignGet(checkKey(key), ttlSeconds);
  }
}
