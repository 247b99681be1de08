/**
 * Job kinds for the job system's own tests: `items` does one counted effect per item (a row in
 * job_test_effect), so a test sees whether any item was done twice or not at all.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { migrate, openDb, type Db } from '../db/database.js';
import { fail } from '../errors.js';
import type { JobContext, JobHandlers, Json } from '../jobs/types.js';
import { openTestDb } from './db.js';
import { TEST_DATABASE_URL } from './parts.js';

/** The test kinds. */
export type TestKind = 'items' | 'fails';

/** What an `items` job carries: how many items, and how long each takes (ms). */
export interface ItemsPayload {
  [key: string]: Json;
  n: number;
  delayMs: number;
}

/** Creates the effect table (once per database). */
export async function createEffectTable(db: Db): Promise<void> {
  await sql`create table if not exists job_test_effect (job_id integer not null, item integer not null)`.execute(db);
}

/** How many times each item of a job had its effect, by item. */
export async function effectCounts(db: Db, jobId: number): Promise<Map<number, number>> {
  const rows = await sql<{ item: number; n: number | string }>`
    select item, count(*) as n from job_test_effect where job_id = ${jobId} group by item`.execute(db);
  return new Map(rows.rows.map((r) => [Number(r.item), Number(r.n)]));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The handlers; `beforeItem` lets a test hold a runner before an item's step (e.g. to let it hang there like
 * a dead process). The result is how many items this run did itself.
 */
export function testHandlers(beforeItem?: (index: number) => Promise<void>): JobHandlers<TestKind> {
  return {
    items: async (ctx: JobContext<ItemsPayload>) => {
      const { n, delayMs } = ctx.payload;
      let mine = 0;
      const effect = async (item: number, trx: Db) => {
        if (delayMs > 0) await sleep(delayMs);
        await sql`insert into job_test_effect (job_id, item) values (${ctx.jobId}, ${item})`.execute(trx);
        mine += 1;
      };
      const items = Array.from({ length: n }, (_, i) => i);
      if (!beforeItem) {
        await ctx.eachItem(items, (item, _index, trx) => effect(item, trx), 'items');
        return { n, mine };
      }
      // The same steps by hand, so a test can hold the runner between two steps (outside any transaction).
      const start = typeof ctx.cursor === 'number' ? ctx.cursor : 0;
      await ctx.progress(start, n, 'items');
      for (const item of items.slice(start)) {
        await beforeItem(item);
        await ctx.checkpoint(item + 1, (trx) => effect(item, trx), { done: item + 1, total: n });
      }
      return { n, mine };
    },
    fails: async (ctx: JobContext<{ code: string }>) => {
      if (ctx.payload.code === 'import_refused') throw fail('import_refused', 'not a question file');
      throw new Error('the disk is on fire');
    },
  };
}

/** One database that several "processes" open on their own connections: a SQLite file, or a PostgreSQL schema. */
export interface SharedDb {
  /** The test's own handle (migrated, with the effect table). */
  db: Db;
  /** Another handle on the same database, as another process would have. */
  open(): Db;
  /** How a child process finds it (JOB_DB, JOB_DB_SCHEMA). */
  env: Record<string, string>;
  drop(): Promise<void>;
}

/** A fresh shared database of a dialect. */
export async function sharedDb(dialect: 'sqlite' | 'postgres'): Promise<SharedDb> {
  const opened: Db[] = [];
  if (dialect === 'sqlite') {
    const dir = await mkdtemp(path.join(tmpdir(), 'examhall-jobs-'));
    const file = path.join(dir, 'jobs.sqlite');
    const handle = openDb({ sqliteFile: file });
    await migrate(handle);
    await createEffectTable(handle.db);
    return {
      db: handle.db,
      open() {
        const db = openDb({ sqliteFile: file }).db;
        opened.push(db);
        return db;
      },
      env: { JOB_DB: file },
      async drop() {
        for (const db of opened) await db.destroy().catch(() => undefined);
        await handle.db.destroy();
        await rm(dir, { recursive: true, force: true });
      },
    };
  }
  const test = await openTestDb('postgres');
  const schema = test.handle.schema!;
  await createEffectTable(test.handle.db);
  return {
    db: test.handle.db,
    open() {
      const db = openDb({ databaseUrl: TEST_DATABASE_URL, searchPath: schema }).db;
      opened.push(db);
      return db;
    },
    env: { JOB_DB: TEST_DATABASE_URL, JOB_DB_SCHEMA: schema },
    async drop() {
      for (const db of opened) await db.destroy().catch(() => undefined);
      await test.drop();
    },
  };
}
