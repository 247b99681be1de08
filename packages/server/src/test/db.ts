/** Test databases: every data-layer test runs on SQLite and on PostgreSQL. */
import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
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

/** A database as an earlier migration left it, written with the columns of that time (migration tests). */
export interface LegacyDb {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the tables as they were, not today's schema
  db: Kysely<any>;
  /** The rows' time. */
  now: number;
  /** Adds a row and answers its id. */
  insert(table: string, values: Record<string, unknown>): Promise<number>;
  /** An exam row with the columns every version of the table has. */
  exam(name: string): Promise<number>;
  /** Runs the migrations after `upTo`. */
  migrateRest(): Promise<void>;
  /** The database with today's schema, to read what the migrations made of the rows. */
  handle: DbHandle;
}

/** Runs `test` on a database migrated up to `upTo` (a migration's name), then drops it. */
export async function withLegacyDb(
  dialect: TestDialect,
  upTo: string,
  test: (legacy: LegacyDb) => Promise<void>,
): Promise<void> {
  const opened = await openTestDb(dialect, upTo);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the tables as they were, not today's schema
  const db = opened.handle.db as unknown as Kysely<any>;
  const now = Date.UTC(2026, 0, 5);
  const insert = async (table: string, values: Record<string, unknown>) =>
    (await db.insertInto(table).values(values).returning('id').executeTakeFirstOrThrow()).id as number;
  try {
    await test({
      db,
      now,
      insert,
      exam: (name) =>
        insert('exams', {
          name,
          description: '',
          mode: 1,
          time_minutes: 60,
          start_at: now,
          end_at: now + 86_400_000,
          settings: '{}',
          created_at: now,
        }),
      handle: opened.handle,
      migrateRest: async () => {
        await migrate(opened.handle);
      },
    });
  } finally {
    await opened.drop();
  }
}
