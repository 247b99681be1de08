/**
 * A long write of staff work (a job storing thousands of rows) goes in short statements with a pause after each,
 * as long as the statement took. SQLite has one writer: a candidate's save that finds it busy polls again after a
 * few milliseconds (dialects/sqlite.ts), and a job that began its next statement at once would keep taking the
 * writer first. With the pause, the writer is free at least half the time, so a waiting save gets in after at most
 * one batch. The worker runs at a lower priority (cluster/priority.ts), so a batch may take several times its CPU.
 */
import { setTimeout as sleep } from 'node:timers/promises';

/** Rows a batch writes: a statement of this many is a few milliseconds of the writer. */
export const TURN_ROWS = 200;

/** The least pause between batches, for the batches that take under a millisecond. */
const MIN_PAUSE_MS = 1;

/** Writes `items` in batches of `size` (each its own statement or short transaction) with a pause after each. */
export async function inTurns<T>(
  items: readonly T[],
  write: (batch: readonly T[]) => Promise<unknown>,
  size = TURN_ROWS,
): Promise<void> {
  for (let i = 0; i < items.length; i += size) {
    const started = performance.now();
    await write(items.slice(i, i + size));
    if (i + size < items.length) await sleep(Math.max(MIN_PAUSE_MS, performance.now() - started));
  }
}
