import type { Db } from './database.js';

interface Waiting<P, R> {
  params: P;
  resolve: (row: R | undefined) => void;
  reject: (err: unknown) => void;
}

/**
 * A read that every request makes, gathered: the reads of requests that arrive in the same turn of the
 * event loop run as one statement at its end, and each gets its own row. On PostgreSQL a statement is a
 * round trip to another process, and the candidate lookup of every request was one of them; `read` answers
 * one row (or undefined) per parameter set, in order. Reads on different databases are not mixed.
 */
export function gathered<P, R>(
  read: (db: Db, params: readonly P[]) => Promise<(R | undefined)[]>,
): (db: Db, params: P) => Promise<R | undefined> {
  const waiting = new Map<Db, Waiting<P, R>[]>();
  const run = async (db: Db) => {
    const batch = waiting.get(db)!;
    waiting.delete(db);
    try {
      const rows = await read(
        db,
        batch.map((w) => w.params),
      );
      batch.forEach((w, i) => w.resolve(rows[i]));
    } catch (err) {
      for (const w of batch) w.reject(err);
    }
  };
  return (db, params) =>
    new Promise<R | undefined>((resolve, reject) => {
      let batch = waiting.get(db);
      if (!batch) {
        batch = [];
        waiting.set(db, batch);
        setImmediate(() => void run(db));
      }
      batch.push({ params, resolve, reject });
    });
}
