/**
 * The candidate's own exam data kept in this browser (exam detail, attempt, question list,
 * questions), so a reload without a network brings the exam page back and the unsent answers
 * with it. Only read when the network fails; a fresh answer always replaces it. Kept per
 * candidate: on a shared browser, one candidate never reads another's copy.
 */
import { isApiError } from '../api/client.js';
import { currentCandidate } from '../session/owner.js';

const DB_NAME = 'examhall-cache';
const STORE = 'responses';

let dbPromise: Promise<IDBDatabase> | null = null;

function db(): Promise<IDBDatabase> {
  dbPromise ??= new Promise((resolve, reject) => {
    const open = indexedDB.open(DB_NAME, 1);
    open.onupgradeneeded = () => open.result.createObjectStore(STORE);
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error ?? new Error('IndexedDB unavailable'));
  });
  return dbPromise;
}

/** The key of `key` for the candidate logged in now. */
const scoped = (key: string) => `${currentCandidate() ?? '-'}:${key}`;

async function write(key: string, value: unknown): Promise<void> {
  const d = await db();
  await new Promise<void>((resolve, reject) => {
    const tx = d.transaction(STORE, 'readwrite');
    tx.objectStore(STORE).put(value, scoped(key));
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error ?? new Error('IndexedDB write failed'));
  });
}

async function read<T>(key: string): Promise<T | undefined> {
  const d = await db();
  return new Promise<T | undefined>((resolve, reject) => {
    const req = d.transaction(STORE, 'readonly').objectStore(STORE).get(scoped(key));
    req.onsuccess = () => resolve(req.result as T | undefined);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB read failed'));
  });
}

/** True for failures where no answer came back at all (offline, timeout). */
export function isNetworkFailure(e: unknown): boolean {
  return isApiError(e) && (e.code === 'network_error' || e.code === 'timeout');
}

/** Loads from the network and keeps a copy; without a network, answers the copy if there is one. */
export async function cached<T>(key: string, load: () => Promise<T>): Promise<T> {
  try {
    const value = await load();
    await write(key, value).catch(() => undefined);
    return value;
  } catch (e) {
    if (!isNetworkFailure(e)) throw e;
    const copy = await read<T>(key).catch(() => undefined);
    if (copy === undefined) throw e;
    return copy;
  }
}

/** Keeps a value without loading it (e.g. the attempt from a start-exam answer). */
export function remember(key: string, value: unknown): Promise<void> {
  return write(key, value).catch(() => undefined);
}

/** A kept value, if any. */
export function recall<T>(key: string): Promise<T | undefined> {
  return read<T>(key).catch(() => undefined);
}
