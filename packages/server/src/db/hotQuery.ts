import type { CompiledQuery, Compilable, QueryResult } from 'kysely';
import type { Db } from './database.js';
import { runDirect, runDirectSoon } from './dialects/sqlite.js';

const SENTINEL = '\u0000hot:';

/**
 * A query that runs on every request, built and compiled once per dialect and then run with new
 * parameters. Building and compiling a Kysely query costs more than running it on SQLite, and these few
 * queries run thousands of times a second. `build` receives a stand-in for each named parameter.
 * On SQLite the statement runs directly on the connection when it may (see `runDirect`), and the answer
 * is then there at once, without a promise; on PostgreSQL it goes through Kysely. Callers `await` either.
 */
export function hotQuery<P extends Record<string, unknown>, R>(
  build: (db: Db, p: P) => Compilable<R>,
  opts: {
    /**
     * A read that every request makes before anything else: on SQLite, the reads of requests that arrive
     * together are run back to back at the end of this turn of the event loop (see `runDirectSoon`).
     */
    gather?: boolean;
  } = {},
) {
  const compiled = new Map<string, CompiledQuery<R>>();
  const names = new Map<string, keyof P>();
  const stand = new Proxy({} as P, {
    get(_t, prop: string) {
      const token = `${SENTINEL}${prop}`;
      names.set(token, prop as keyof P);
      return token;
    },
  });
  return (db: Db, params: P): QueryResult<R> | Promise<QueryResult<R>> => {
    const dialect = db.getExecutor().adapter.constructor.name;
    let query = compiled.get(dialect);
    if (!query) {
      query = build(db, stand).compile();
      compiled.set(dialect, query);
    }
    const parameters = query.parameters.map((v) => (typeof v === 'string' && names.has(v) ? params[names.get(v)!] : v));
    const bound = { ...query, parameters };
    return (opts.gather ? runDirectSoon(db, bound) : runDirect(db, bound)) ?? db.executeQuery<R>(bound);
  };
}
