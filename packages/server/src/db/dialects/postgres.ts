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
  return {
    name: 'postgres',
    dialect: new PostgresDialect({ pool }),
    idType: 'serial',
    groupCommitLanes: 4,
    idColumn: (col) => col.primaryKey(),
  };
}
