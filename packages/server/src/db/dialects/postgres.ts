import { PostgresDialect } from 'kysely';
import pg from 'pg';
import type { DialectKit } from './types.js';

// Epoch-ms columns are bigint; they fit in a JS number, so read them as numbers rather than strings.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

/** Socket errors of a connection that could not be made or broke. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH']);
/** PostgreSQL's own: the connection exception class (08) and a server shutting down or starting (57P01-57P03). */
const SERVER_CODES = /^(08\d{3}|57P0[1-3])$/;
/** What node-postgres says when a connection ends under it or cannot be had. */
const POOL_MESSAGES = /^(Connection terminated|timeout exceeded when trying to connect)/;

/**
 * True when `err` says PostgreSQL is not answering (down, restarting, cut off) rather than that the query was
 * wrong: the same request may succeed once it is back.
 */
export function isPostgresUnavailable(err: unknown): boolean {
  let e: unknown = err;
  for (let depth = 0; e instanceof Error && depth < 5; depth++, e = e.cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || SERVER_CODES.test(code))) return true;
    if (POOL_MESSAGES.test(e.message)) return true;
  }
  return false;
}

/**
 * How long a new connection may take. Without a limit, a PostgreSQL behind a network that drops packets (rather
 * than refusing) would hold every request that needs a connection until the operating system gives up, minutes
 * later; with it they answer `database_unavailable` and the page tries again.
 */
export const PG_CONNECT_TIMEOUT_MS = 5_000;

/** PostgreSQL through a pool; `searchPath` isolates a schema (used by tests). */
export function postgresKit(connectionString: string, searchPath?: string): DialectKit {
  const pool = new pg.Pool({
    connectionString,
    max: 10,
    connectionTimeoutMillis: PG_CONNECT_TIMEOUT_MS,
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
