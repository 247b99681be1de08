import type { Db } from './database.js';

interface Pending<T> {
  work: (trx: Db) => Promise<T>;
  resolve: (value: T) => void;
  reject: (err: unknown) => void;
}

/**
 * Runs small writes that arrive together in one transaction, and answers each only after that
 * transaction commits. A commit costs far more than the writes in it (WAL frames on SQLite, a flush on
 * PostgreSQL), so under load this multiplies acknowledged writes per second; alone, a write waits for
 * nothing but the next turn of the event loop. If one write of a batch fails, the batch is rolled back
 * and each write is run again in a transaction of its own, so only the failing one fails.
 */
export class GroupCommit {
  private queue: Pending<unknown>[] = [];
  private scheduled = false;

  /** With `enabled` false every write gets a transaction of its own (PostgreSQL already groups commits across connections). */
  constructor(
    private readonly db: Db,
    private readonly enabled: boolean,
    private readonly maxBatch = 256,
  ) {}

  /** Runs `work` inside a shared transaction; resolves after the commit. */
  run<T>(work: (trx: Db) => Promise<T>): Promise<T> {
    if (!this.enabled) return this.db.transaction().execute(work);
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve, reject } as Pending<unknown>);
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    const batch = this.queue.splice(0, this.maxBatch);
    if (this.queue.length > 0) setImmediate(() => void this.flush());
    else this.scheduled = false;
    if (batch.length === 0) return;
    try {
      const results = await this.db.transaction().execute(async (trx) => {
        const out: unknown[] = [];
        for (const item of batch) out.push(await item.work(trx));
        return out;
      });
      batch.forEach((item, i) => item.resolve(results[i]));
    } catch {
      for (const item of batch) {
        try {
          item.resolve(await this.db.transaction().execute((trx) => item.work(trx)));
        } catch (err) {
          item.reject(err);
        }
      }
    }
  }
}
