/**
 * Where the metrics hear of failures of the parts: object store calls that fail (the store's own failures, not a
 * key it refuses or a write the disk reserve turns away) and database statements that fail, by kind. Neither adds
 * work to a call that succeeds.
 */
import type { LogEvent } from 'kysely';
import { isDatabaseUnavailable } from '../db/database.js';
import { AppError } from '../errors.js';
import { ObjectTooLargeError } from '../storage/digest.js';
import { InvalidKeyError, KeyConflictError, type ObjectStore } from '../storage/objectStore.js';
import { STORE_OPERATIONS, type DbErrorKind, type Instruments } from './metrics.js';

const COUNTED = new Set<string>(STORE_OPERATIONS);

/** True when `err` is the store's own failure rather than a refusal the caller answers for. */
function storeFault(err: unknown): boolean {
  return ![AppError, InvalidKeyError, KeyConflictError, ObjectTooLargeError].some((refusal) => err instanceof refusal);
}

/**
 * `store` with each failed call of its operations reported to `metrics`. The same object to everything else (its
 * class, its other members), so code that asks what kind of store it has still knows.
 */
export function countStoreFailures<S extends ObjectStore>(store: S, metrics: Pick<Instruments, 'storeFailed'>): S {
  return new Proxy(store, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof prop !== 'string' || !COUNTED.has(prop) || typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        let out: unknown;
        try {
          out = (value as (...a: unknown[]) => unknown).apply(target, args);
        } catch (err) {
          if (storeFault(err)) metrics.storeFailed(prop);
          throw err;
        }
        if (!(out instanceof Promise)) return out;
        return out.catch((err: unknown) => {
          if (storeFault(err)) metrics.storeFailed(prop);
          throw err;
        });
      };
    },
  });
}

/** Why a statement failed: the database did not answer, a constraint refused the row, or anything else. */
export function dbErrorKind(err: unknown): DbErrorKind {
  if (isDatabaseUnavailable(err)) return 'unavailable';
  const code = (err as { code?: unknown } | null)?.code;
  // PostgreSQL's integrity class (23xxx) and SQLite's constraint codes: services often expect these (races).
  if (typeof code === 'string' && (/^23\d{3}$/.test(code) || code.startsWith('SQLITE_CONSTRAINT'))) return 'constraint';
  return 'other';
}

/** A Kysely log that reports each failed statement to `metrics` (and passes every event on to `next`). */
export function countDbFailures(
  metrics: Pick<Instruments, 'dbFailed'>,
  next?: (event: LogEvent) => void,
): (event: LogEvent) => void {
  return (event) => {
    if (event.level === 'error') metrics.dbFailed(dbErrorKind(event.error));
    next?.(event);
  };
}
