import { createHash } from 'node:crypto';
import { fail } from '../http/errors.js';
import type { ObjectStore } from './objectStore.js';

/** How many first bytes of an object tell its type. */
const SNIFF_BYTES = 64;

/** A stored object's SHA-256 (hex), size and first bytes (enough to tell its type). */
export interface StoredDigest {
  sha256: string;
  size: number;
  head: Buffer;
}

/** Reads a stored object as a stream and digests it; null when it is not there. */
export async function digestOf(store: ObjectStore, key: string): Promise<StoredDigest | null> {
  const found = await store.stream(key);
  if (!found) return null;
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
