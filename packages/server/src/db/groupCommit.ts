import type { Db } from './database.js';

/** What a batch writer answers for one item: its result, or the error that item alone fails with. */
export type ItemOutcome<O> = { value: O } | { error: unknown };

/**
 * How a group commit writes: `batch` writes every item of a batch inside one transaction and answers an
 * outcome per item, in order (an item it refuses fails alone, the others commit); `one` writes a single item
 * inside a transaction of its own. `batch` may throw: the batch is then rolled back and each item is
 * written again with `one`, so only the failing one fails.
 */
export interface BatchWriter<I, O> {
  batch(trx: Db, items: readonly I[]): Promise<ItemOutcome<O>[]>;
  one(trx: Db, item: I): Promise<O>;
}

interface Pending<I, O> {
  item: I;
  resolve: (value: O) => void;
  reject: (err: unknown) => void;
}

/**
 * Runs small writes that arrive together in one transaction, and answers each only after that transaction
 * commits. A commit costs far more than the writes in it (WAL frames on SQLite; a flush and a round trip
 * on PostgreSQL, where a batch writer also puts many rows in one statement), so under load this multiplies
 * acknowledged writes per second; alone, a write waits for nothing but the next turn of the event loop.
 * At most `lanes` batches are in flight at once (each holds one connection); writes that arrive meanwhile
 * form the next batch.
 */
export class GroupCommit<I, O> {
  private queue: Pending<I, O>[] = [];
  private scheduled = false;
  private inFlight = 0;

  constructor(
    private readonly db: Db,
    private readonly writer: BatchWriter<I, O>,
    private readonly opts: { maxBatch?: number; lanes?: number } = {},
  ) {}

  /** Writes `item` inside a shared transaction; resolves after the commit. */
  run(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.queue.length === 0 || this.inFlight >= (this.opts.lanes ?? Infinity)) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.flush();
    });
  }

  private async flush(): Promise<void> {
    const batch = this.queue.splice(0, this.opts.maxBatch ?? 256);
    if (batch.length === 0) return;
    this.inFlight += 1;
    this.schedule();
    try {
      let outcomes: ItemOutcome<O>[] | null = null;
      try {
        outcomes = await this.db.transaction().execute((trx) =>
          this.writer.batch(
            trx,
            batch.map((p) => p.item),
          ),
        );
      } catch {
        // Rolled back: each write again in a transaction of its own, so only the failing one fails.
      }
      if (outcomes) {
        batch.forEach((p, i) => {
          const o = outcomes[i]!;
          if ('error' in o) p.reject(o.error);
          else p.resolve(o.value);
        });
      } else {
        for (const p of batch) {
          try {
            p.resolve(await this.db.transaction().execute((trx) => this.writer.one(trx, p.item)));
          } catch (err) {
            p.reject(err);
          }
        }
      }
    } finally {
      this.inFlight -= 1;
      this.schedule();
    }
  }
}

/** The batch writer that writes the items one after another with `one` (SQLite: every statement is local). */
export function oneByOne<I, O>(one: (trx: Db, item: I) => Promise<O>): BatchWriter<I, O> {
  return {
    one,
    async batch(trx, items) {
      const out: ItemOutcome<O>[] = [];
      for (const item of items) out.push({ value: await one(trx, item) });
      return out;
    },
  };
}
