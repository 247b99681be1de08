/** How tests take the SQL a repository builds and ask the database's planner how it runs it. */
import {
  CompiledQuery,
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  sql,
} from 'kysely';
import type { Db } from '../db/database.js';
import type { Database } from '../db/schema.js';
import type { TestDialect } from './db.js';

/** A database that runs nothing and keeps the SQL each call compiles, in `dialect`'s language. */
export function sqlRecorder(dialect: TestDialect): { db: Kysely<Database>; queries: CompiledQuery[] } {
  const queries: CompiledQuery[] = [];
  const sqlite = dialect === 'sqlite';
  const db = new Kysely<Database>({
    dialect: {
      createAdapter: () => (sqlite ? new SqliteAdapter() : new PostgresAdapter()),
      createDriver: () => new DummyDriver(),
      createIntrospector: (k) => (sqlite ? new SqliteIntrospector(k) : new PostgresIntrospector(k)),
      createQueryCompiler: () => (sqlite ? new SqliteQueryCompiler() : new PostgresQueryCompiler()),
    },
    log: (event) => void queries.push(event.query),
  });
  return { db, queries };
}

/**
 * The planner's plan of `query` on `db`, one line a step; on PostgreSQL with sequential scans priced out, so an
 * index is taken wherever there is one.
 */
export async function planOf(db: Db, dialect: TestDialect, query: CompiledQuery): Promise<string> {
  if (dialect === 'sqlite') {
    const rows = await db.executeQuery<{ detail: string }>(
      CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]),
    );
    return rows.rows.map((r) => r.detail).join('\n');
  }
  return db.transaction().execute(async (tx) => {
    await sql`set local enable_seqscan = off`.execute(tx);
    const rows = await tx.executeQuery<{ 'QUERY PLAN': string }>(
      CompiledQuery.raw(`explain ${query.sql}`, [...query.parameters]),
    );
    return rows.rows.map((r) => r['QUERY PLAN']).join('\n');
  });
}
