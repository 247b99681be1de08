import {
  PostgresDialect,
  sql,
  type DatabaseIntrospector,
  type DatabaseMetadata,
  type Kysely,
  type SchemaMetadata,
  type TableMetadata,
} from 'kysely';
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
    dialect: new OwnSchemaDialect({ pool }),
    idType: 'serial',
    groupCommitLanes: 4,
    idColumn: (col) => col.primaryKey(),
  };
}

/**
 * Kysely's PostgreSQL dialect with an introspector that looks at the connection's own schema only. Kysely's own
 * reads every schema's tables and resolves each one's name again (`pg_get_serial_sequence`), so a schema dropped
 * by another connection meanwhile fails it ("schema ... does not exist"): the migrator asks it which of its tables
 * exist, and tests migrating their schemas while others drop theirs failed that way.
 */
class OwnSchemaDialect extends PostgresDialect {
  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new OwnSchemaIntrospector(db);
  }
}

class OwnSchemaIntrospector implements DatabaseIntrospector {
  constructor(private readonly db: Kysely<unknown>) {}

  async getSchemas(): Promise<SchemaMetadata[]> {
    const { rows } = await sql<{ name: string }>`select nspname as name from pg_catalog.pg_namespace`.execute(this.db);
    return rows;
  }

  async getTables(): Promise<TableMetadata[]> {
    const { rows } = await sql<{
      schema: string;
      table: string;
      is_view: boolean;
      column: string;
      data_type: string;
      nullable: boolean;
      column_default: string | null;
      is_identity: boolean;
    }>`
      select c.table_schema as schema, c.table_name as table, t.table_type = 'VIEW' as is_view,
        c.column_name as column, c.udt_name as data_type, c.is_nullable = 'YES' as nullable,
        c.column_default, c.is_identity = 'YES' as is_identity
      from information_schema.columns c
      join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
      where c.table_schema = current_schema()
      order by c.table_name, c.ordinal_position`.execute(this.db);
    const tables = new Map<string, TableMetadata>();
    for (const r of rows) {
      let table = tables.get(r.table);
      if (!table) {
        table = { name: r.table, schema: r.schema, isView: r.is_view, columns: [] };
        tables.set(r.table, table);
      }
      (table.columns as TableMetadata['columns'][number][]).push({
        name: r.column,
        dataType: r.data_type,
        isNullable: r.nullable,
        isAutoIncrementing: r.is_identity || (r.column_default?.startsWith('nextval(') ?? false),
        hasDefaultValue: r.column_default !== null || r.is_identity,
      });
    }
    return [...tables.values()];
  }

  async getMetadata(): Promise<DatabaseMetadata> {
    return { tables: await this.getTables() };
  }
}
