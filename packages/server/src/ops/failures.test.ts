/**
 * The failures the metrics count: object store calls that fail (not a refused key or a full reserve) through the
 * store's wrapper, which stays the same store to everything else, and failed database statements by kind through
 * Kysely's log; and the admission queue's length as a process sees it.
 */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDb } from '../db/database.js';
import { fail } from '../errors.js';
import { MemoryRateLimiter } from '../ratelimit/limiter.js';
import { AdmissionService } from '../services/admission.js';
import { ObjectTooLargeError } from '../storage/digest.js';
import { InvalidKeyError, type ObjectStore } from '../storage/objectStore.js';
import { countDbFailures, countStoreFailures } from './failures.js';
import { Metrics } from './metrics.js';

/** The value of `family`'s sample with `labels`, read from the exposition. */
async function sample(metrics: Metrics, family: string, labels: string): Promise<number> {
  const line = new RegExp(`^${family}\\{${labels}\\} (\\S+)$`, 'm').exec((await metrics.scrape()).text);
  return Number(line?.[1] ?? NaN);
}

/** A store whose put fails with what it is given, and whose other calls answer. */
class FlakyStore implements ObjectStore {
  readonly countsUploads = false;
  failWith: unknown = undefined;
  async put(): Promise<{ sha256: string; size: number }> {
    if (this.failWith !== undefined) throw this.failWith;
    return { sha256: '', size: 0 };
  }
  async putFile(): Promise<{ size: number }> {
    return { size: 0 };
  }
  async get(): Promise<Buffer | null> {
    return null;
  }
  async stream(): Promise<null> {
    return null;
  }
  async head(): Promise<null> {
    return null;
  }
  async digest(): Promise<null> {
    if (this.failWith !== undefined) throw this.failWith;
    return null;
  }
  async presignGet(): Promise<string> {
    return 'http://store/x';
  }
  async delete(): Promise<void> {}
  async probe(): Promise<void> {}
  async spaceLeft(): Promise<number | null> {
    return null;
  }
  /** Not one of the store's calls: passed through as it is. */
  label(): string {
    return 'flaky';
  }
}

describe('store failures', () => {
  it('are counted by operation; refusals the caller answers for are not, and the store stays what it was', async () => {
    const metrics = new Metrics();
    const inner = new FlakyStore();
    const wrapped = countStoreFailures(inner, metrics);
    expect(wrapped).toBeInstanceOf(FlakyStore);
    expect(wrapped.label()).toBe('flaky');
    const store: ObjectStore = wrapped;
    expect(await sample(metrics, 'examhall_store_errors_total', 'operation="put"')).toBe(0);
    expect(await sample(metrics, 'examhall_store_errors_total', 'operation="get"')).toBe(0);

    await store.put('a', Buffer.from('x'));
    inner.failWith = new Error('connect ECONNREFUSED');
    await expect(store.put('a', Buffer.from('x'))).rejects.toThrow('ECONNREFUSED');
    inner.failWith = fail('storage_full');
    await expect(store.put('a', Buffer.from('x'))).rejects.toThrow();
    inner.failWith = new InvalidKeyError('empty', false);
    await expect(store.put('', Buffer.from('x'))).rejects.toThrow(InvalidKeyError);
    expect(await store.get('a')).toBeNull();
    // An upload over its kind's size is the uploader's, not the store's; a store that went away is.
    inner.failWith = new ObjectTooLargeError(10, 5);
    await expect(store.digest('a', 5)).rejects.toThrow(ObjectTooLargeError);
    inner.failWith = new Error('socket hang up');
    await expect(store.digest('a')).rejects.toThrow('socket hang up');

    expect(await sample(metrics, 'examhall_store_errors_total', 'operation="put"')).toBe(1);
    expect(await sample(metrics, 'examhall_store_errors_total', 'operation="digest"')).toBe(1);
    expect(await sample(metrics, 'examhall_store_errors_total', 'operation="get"')).toBe(0);
  });
});

describe('database failures', () => {
  it('are counted by kind from the statements that fail, and statements that succeed count nothing', async () => {
    const metrics = new Metrics();
    const handle = openDb({ sqliteFile: ':memory:', log: countDbFailures(metrics) });
    try {
      await sql`create table t (id integer primary key)`.execute(handle.db);
      await sql`insert into t (id) values (1)`.execute(handle.db);
      await expect(sql`insert into t (id) values (1)`.execute(handle.db)).rejects.toThrow();
      await expect(sql`select * from no_such_table`.execute(handle.db)).rejects.toThrow();
      await sql`select 1`.execute(handle.db);
    } finally {
      await handle.db.destroy();
    }
    expect(await sample(metrics, 'examhall_db_errors_total', 'kind="constraint"')).toBe(1);
    expect(await sample(metrics, 'examhall_db_errors_total', 'kind="other"')).toBe(1);
    expect(await sample(metrics, 'examhall_db_errors_total', 'kind="unavailable"')).toBe(0);
  });
});

describe('the admission queue', () => {
  it('is the candidates told to wait, fewer as their turns come', async () => {
    let now = 1_000_000;
    const clock = () => now;
    const admission = new AdmissionService(new MemoryRateLimiter(clock), { rate: 10, burstMs: 1000, clock });
    expect(admission.queued()).toBe(0);
    // Ten a second with a second's burst: the first eleven enter at once (turns up to a second ahead), the rest wait.
    let refused = 0;
    for (let id = 1; id <= 30; id++) await admission.admit(id).catch(() => refused++);
    expect(refused).toBe(19);
    expect(admission.queued()).toBe(19);
    now += 1_000;
    expect(admission.queued()).toBe(9);
    now += 10_000;
    expect(admission.queued()).toBe(0);
  });
});
