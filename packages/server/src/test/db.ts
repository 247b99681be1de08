/** Test databases: every data-layer test runs on SQLite and on PostgreSQL. */
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { migrate, openDb, type DbHandle, type DbTarget } from '../db/database.js';
import { requirePart, TEST_DATABASE_URL } from './parts.js';

/** The dialects every data-layer test runs on. */
export const DIALECTS = ['sqlite', 'postgres'] as const;
/** A dialect name. */
export type TestDialect = (typeof DIALECTS)[number];

/** A migrated, empty database of one dialect, private to the caller. */
export interface TestDb {
  handle: DbHandle;
  /** Drops what was created. */
  drop(): Promise<void>;
}

/** True when the dialect can be tested here (throws under CI when PostgreSQL is missing). */
export async function dialectAvailable(dialect: TestDialect): Promise<boolean> {
  return dialect === 'sqlite' ? true : requirePart('postgres');
}

/**
 * Opens a fresh database: SQLite in memory, or a schema of its own in PostgreSQL (at `url`, the test server by
 * default); migrated up to date, or up to the migration `upTo` (then `migrate(handle)` runs the rest). `log` hears
 * every statement run on it.
 */
export async function openTestDb(
  dialect: TestDialect,
  upTo?: string,
  url = TEST_DATABASE_URL,
  log?: DbTarget['log'],
): Promise<TestDb> {
  if (dialect === 'sqlite') {
    const handle = openDb({ sqliteFile: ':memory:', ...(log ? { log } : {}) });
    await migrate(handle, upTo);
    return { handle, drop: () => handle.db.destroy() };
  }
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const handle = openDb({ databaseUrl: url, searchPath: schema, ...(log ? { log } : {}) });
  await migrate(handle, upTo);
  return {
    handle,
    async drop() {
      await sql`drop schema ${sql.id(schema)} cascade`.execute(handle.db);
      await handle.db.destroy();
    },
  };
}

/** The dialects to test here: both, or SQLite alone with a loud warning outside CI when PostgreSQL is missing. */
export async function testedDialects(): Promise<TestDialect[]> {
  const out: TestDialect[] = [];
  for (const d of DIALECTS) if (await dialectAvailable(d)) out.push(d);
  return out;
}
