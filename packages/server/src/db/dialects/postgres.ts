import { PostgresDialect } from 'kysely';
import pg from 'pg';
import type { DialectKit } from './types.js';

// Epoch-ms columns are bigint; they fit in a JS number, so read them as numbers rather than strings.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

/** PostgreSQL through a pool; `searchPath` isolates a schema (used by tests). */
export function postgresKit(connectionString: string, searchPath?: string): DialectKit {
  const pool = new pg.Pool({
    connectionString,
    max: 10,
    ...(searchPath ? { options: `-c search_path=${searchPath}` } : {}),
  });
  // A connection that breaks (the server restarted, a proxy closed it) leaves the pool, which opens a new one
  // on the next query; the query it was running fails with the error. Unheard, the 'error' event of the pool
  // (an idle connection) or of the client (one in use) would end the process.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  return {
    name: 'postgres',
    pool: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    dialect: new PostgresDialect({ pool }),
    idType: 'serial',
    groupCommitLanes: 4,
    idColumn: (col) => col.primaryKey(),
  };
}
