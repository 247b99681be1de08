import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { LocalCredentials } from './localCredentials.js';

/** Object storage: local disk on one machine, S3-compatible on a cluster. */
export interface ObjectStore {
  /** Stores bytes under a key; returns their SHA-256. */
  put(key: string, data: Buffer): Promise<{ sha256: string; size: number }>;
  /** The bytes under a key, or null. */
  get(key: string): Promise<Buffer | null>;
  /** A stream of the bytes under a key, or null. */
  stream(key: string): Promise<{ stream: Readable; size: number } | null>;
  /** Size of the object under a key, or null when there is none. */
  head(key: string): Promise<{ size: number } | null>;
  /** A short-lived URL a browser can GET the object with (signed; works without any other credential). */
  presignGet(key: string, ttlSeconds: number): Promise<string>;
}

/** Keys are paths of plain segments; anything else could escape the store's folder. */
export function checkKey(key: string): string {
  if (!/^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/.test(key) || key.split('/').some((s) => s === '.' || s === '..')) {
    throw new Error(`invalid storage key: ${key}`);
  }
  return key;
}

/** Object storage in a folder: the embedded default. Writes go to a temp file and are renamed, so a reader never sees half a file. */
export class LocalObjectStore implements ObjectStore {
  constructor(
    private readonly root: string,
    /** Signs URLs and checks credentials for the store's S3-style endpoint (`/storage`); without it nothing is served over HTTP. */
    readonly credentials?: LocalCredentials,
  ) {}

  private file(key: string): string {
    return path.join(this.root, checkKey(key));
  }

  async put(key: string, data: Buffer): Promise<{ sha256: string; size: number }> {
    const file = this.file(key);
    await fs.promises.mkdir(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
    const handle = await fs.promises.open(tmp, 'w');
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.promises.rename(tmp, file);
    return { sha256: createHash('sha256').update(data).digest('hex'), size: data.length };
  }

  /**
   * Stores bytes under a key only if the key is free (atomically: a hard link fails on an existing name);
   * false when something is already there.
   */
  async create(key: string, data: Buffer): Promise<boolean> {
    const file = this.file(key);
    await fs.promises.mkdir(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.${Date.now()}.${Math.random().toString(36).slice(2)}.tmp`;
    const handle = await fs.promises.open(tmp, 'w');
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    try {
      await fs.promises.link(tmp, file);
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw err;
    } finally {
      await fs.promises.unlink(tmp);
    }
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      return await fs.promises.readFile(this.file(key));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async stream(key: string): Promise<{ stream: Readable; size: number } | null> {
    try {
      const file = this.file(key);
      const stat = await fs.promises.stat(file);
      return { stream: fs.createReadStream(file), size: stat.size };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async head(key: string): Promise<{ size: number } | null> {
    try {
      const stat = await fs.promises.stat(this.file(key));
      return stat.isFile() ? { size: stat.size } : null;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async presignGet(key: string, ttlSeconds: number): Promise<string> {
    if (!this.credentials) throw new Error('this local store is not served over HTTP, so it cannot presign');
    return this.credentials.presignGet(checkKey(key), ttlSeconds);
  }
}
