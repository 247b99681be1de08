import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { fail } from '../errors.js';

/** What a digest is read through: a store's stream of an object (objectStore.ts), or null when there is none. */
interface Streams {
  stream(key: string): Promise<{ stream: Readable; size: number } | null>;
}

/** How many first bytes of an object tell its type. */
const SNIFF_BYTES = 64;

/** A stored object's SHA-256 (hex), size and first bytes (enough to tell its type). */
export interface StoredDigest {
  sha256: string;
  size: number;
  head: Buffer;
}

/** An object larger than its reader takes: told by the store's size, before any of its bytes are read. */
export class ObjectTooLargeError extends Error {
  constructor(
    readonly size: number,
    readonly maxBytes: number,
  ) {
    super(`the object is ${size} bytes, more than ${maxBytes}`);
    this.name = 'ObjectTooLargeError';
  }
}

/** The digest of bytes held in memory; `sha256`, when given, is theirs already (checked by the caller). */
export function digestBytes(data: Buffer, sha256?: string): StoredDigest {
  return {
    sha256: sha256 ?? createHash('sha256').update(data).digest('hex'),
    size: data.length,
    // A copy: the head outlives the buffer it came from (kept with the object's digest).
    head: Buffer.from(data.subarray(0, SNIFF_BYTES)),
  };
}

/**
 * Reads a stored object as a stream and digests it; null when it is not there. An object over `maxBytes` is not
 * read (ObjectTooLargeError): S3-compatible storage takes objects of any size, and hashing one costs its length.
 */
export async function streamDigest(
  store: Streams,
  key: string,
  maxBytes = Number.POSITIVE_INFINITY,
): Promise<StoredDigest | null> {
  const found = await store.stream(key);
  if (!found) return null;
  if (found.size > maxBytes) {
    // A file stream may fail to open after it is destroyed (the object is deleted meanwhile): nobody needs to hear it.
    found.stream.on('error', () => undefined);
    found.stream.destroy();
    throw new ObjectTooLargeError(found.size, maxBytes);
  }
  const hash = createHash('sha256');
  let size = 0;
  const head: Buffer[] = [];
  try {
    for await (const chunk of found.stream) {
      hash.update(chunk as Buffer);
      if (size < SNIFF_BYTES) head.push(chunk as Buffer);
      size += (chunk as Buffer).length;
    }
  } catch (err) {
    // The store went away in the middle of the object: the caller may try again once it answers.
    throw Object.assign(fail('storage_unavailable'), { cause: err });
  }
  return { sha256: hash.digest('hex'), size, head: Buffer.concat(head).subarray(0, SNIFF_BYTES) };
}
