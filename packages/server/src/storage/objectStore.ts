import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';

/** Object storage: local disk on one machine, S3-compatible on a cluster. */
export interface ObjectStore {
  /** Stores bytes under a key; returns their SHA-256. */
  put(key: string, data: Buffer): Promise<{ sha256: string; size: number }>;
  /** The bytes under a key, or null. */
  get(key: string): Promise<Buffer | null>;
  /** A stream of the bytes under a key, or null. */
  stream(key: string): Promise<{ stream: Readable; size: number } | null>;
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
  constructor(private readonly root: string) {}

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
}
