/**
 * SQLite's one writer held by another process: this process's statements and transactions wait for it from the
 * event loop, so the process's other work (timers, reads run directly) goes on meanwhile; a wait longer than
 * BUSY_WAIT_MS answers as a database that is not answering (503), never as a server error.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { CompiledQuery, Kysely, sql, type Generated } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readWal } from '../../bench/walWatch.js';
import { startScript } from '../../test/processes.js';
import { isDatabaseUnavailable } from '../database.js';
import { BUSY_WAIT_MS, runDirect, sqliteKit, WAL_RESTART_FRAMES } from './sqlite.js';

interface T {
  notes: { id: Generated<number>; text: string };
}

describe('SQLite with the writer held by another process', () => {
  let dir: string;
  let db: Kysely<T>;
  let other: SQLite.Database;

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'examhall-busy-'));
    const file = path.join(dir, 'db.sqlite');
    db = new Kysely<T>({ dialect: sqliteKit(file).dialect });
    await sql`create table notes (id integer primary key, text text not null)`.execute(db);
    await db.insertInto('notes').values({ text: 'first' }).execute();
    other = new SQLite(file);
  });

  afterEach(async () => {
    if (other.inTransaction) other.exec('rollback');
    other.close();
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Holds the writer in the other connection for `ms`, then commits a row of its own. */
  function holdWriter(ms: number): Promise<void> {
    other.exec('begin immediate');
    other.prepare('insert into notes (text) values (?)').run('other');
    return new Promise((resolve) =>
      setTimeout(() => {
        other.exec('commit');
        resolve();
      }, ms),
    );
  }

  it('waits for the writer without stopping the event loop, and reads go on meanwhile', async () => {
    const released = holdWriter(300);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    const started = performance.now();
    const write = db.insertInto('notes').values({ text: 'mine' }).execute();
    const inTransaction = db.transaction().execute(async (trx) => {
      await trx.insertInto('notes').values({ text: 'in a transaction' }).execute();
    });
    // While both wait, a read run directly on the connection answers at once.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const read = runDirect(db, CompiledQuery.raw('select count(*) as n from notes') as CompiledQuery<{ n: number }>);
    expect(read?.rows[0]?.n).toBe(1);
    await Promise.all([write, inTransaction, released]);
    clearInterval(timer);
    const waited = performance.now() - started;
    expect(waited).toBeGreaterThanOrEqual(280);
    // The thread was free while it waited: the 10 ms timer kept ticking (SQLite's own busy wait would stop it).
    expect(ticks).toBeGreaterThanOrEqual(10);
    const texts = (await db.selectFrom('notes').select('text').orderBy('id').execute()).map((r) => r.text);
    expect(texts.slice(0, 2)).toEqual(['first', 'other']);
    expect(texts.slice(2).sort()).toEqual(['in a transaction', 'mine']);
  });

  it('a direct write that finds the writer busy leaves it to the waiting path', async () => {
    other.exec('begin immediate');
    const direct = runDirect(
      db,
      CompiledQuery.raw("insert into notes (text) values ('direct')") as CompiledQuery<unknown>,
    );
    expect(direct).toBeNull();
    other.exec('rollback');
    expect(await db.selectFrom('notes').select('text').execute()).toEqual([{ text: 'first' }]);
  });

  it('gives up after BUSY_WAIT_MS with an error that answers 503, having written nothing', async () => {
    other.exec('begin immediate');
    const started = performance.now();
    const err = await db
      .insertInto('notes')
      .values({ text: 'too late' })
      .execute()
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(performance.now() - started).toBeGreaterThanOrEqual(BUSY_WAIT_MS - 50);
    expect(isDatabaseUnavailable(err)).toBe(true);
    other.exec('rollback');
    expect(await db.selectFrom('notes').select('text').execute()).toEqual([{ text: 'first' }]);
  }, 20_000);
});

describe("SQLite's WAL checkpoints under the supervisor", () => {
  let dir: string;
  let file: string;
  const open: Kysely<T>[] = [];

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'examhall-wal-'));
    file = path.join(dir, 'db.sqlite');
  });

  afterEach(async () => {
    for (const db of open.splice(0)) await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const kysely = (kit: ReturnType<typeof sqliteKit>) => {
    const db = new Kysely<T>({ dialect: kit.dialect });
    open.push(db);
    return db;
  };
  /** Writes about 8 MB in 400 commits, past SQLite's 1,000-page checkpoint threshold several times. */
  async function write(db: Kysely<T>): Promise<void> {
    await sql`create table if not exists notes (id integer primary key, text text not null)`.execute(db);
    for (let i = 0; i < 400; i++)
      await db
        .insertInto('notes')
        .values(Array.from({ length: 4 }, () => ({ text: 'x'.repeat(5000) })))
        .execute();
  }
  const mainFileBytes = () => fs.statSync(file).size;

  it("an API process's commits never copy the WAL into the database file; the worker's timer does", async () => {
    const api = kysely(sqliteKit(file, 'elsewhere'));
    await write(api);
    // Everything is still in the WAL: no commit of this connection checkpointed.
    expect(mainFileBytes()).toBeLessThan(64 * 1024);
    expect(fs.statSync(`${file}-wal`).size).toBeGreaterThan(8_000_000);
    expect(
      await api
        .selectFrom('notes')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirst(),
    ).toEqual({
      n: 1600,
    });

    kysely(sqliteKit(file, 'timer', { everyMs: 20, restartFrames: WAL_RESTART_FRAMES }));
    const until = Date.now() + 5000;
    while (mainFileBytes() < 8_000_000 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    expect(mainFileBytes()).toBeGreaterThan(8_000_000);
  });

  it("the worker's timer waits for the end of a transaction of its own connection", async () => {
    // A job's transaction spans awaits, so the timer fires inside it, where SQLite refuses a checkpoint.
    const db = kysely(sqliteKit(file, 'timer', { everyMs: 5, restartFrames: 1 }));
    await sql`create table notes (id integer primary key, text text not null)`.execute(db);
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('notes')
        .values({ text: 'x'.repeat(5000) })
        .execute();
      await new Promise((r) => setTimeout(r, 100));
      await trx.insertInto('notes').values({ text: 'y' }).execute();
    });
    // The process is still here, and the checkpoints went on after the transaction.
    const until = Date.now() + 5000;
    while (mainFileBytes() < 8192 && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
    expect(mainFileBytes()).toBeGreaterThanOrEqual(8192);
    expect(await db.selectFrom('notes').select('text').execute()).toHaveLength(2);
  });

  it("SQLite's own default checkpoints on commit (one process, tests)", async () => {
    await write(kysely(sqliteKit(file)));
    expect(mainFileBytes()).toBeGreaterThan(4_000_000);
  });

  /**
   * The WAL's median length (frames) while one process commits and two read without a pause for `ms`, the worker's
   * timer checkpointing every 100 ms in this process.
   */
  async function medianWal(restartFrames: number, ms: number): Promise<number> {
    const setup = new SQLite(file);
    setup.pragma('journal_mode = WAL');
    setup.exec('create table t (id integer primary key, v blob)');
    setup.close();
    kysely(sqliteKit(file, 'timer', { everyMs: 100, restartFrames }));
    const start = Date.now() + 1500;
    const env = { WAL_LOAD_START: String(start), WAL_LOAD_END: String(start + ms) };
    const load = await Promise.all(
      ['write', 'read', 'read'].map((role) => startScript('walLoad.ts', env, 'ready', [file, role])),
    );
    const lengths: number[] = [];
    const sampler = setInterval(() => Date.now() >= start && lengths.push(readWal(file)?.frames ?? 0), 20);
    await Promise.all(load.map((child) => new Promise((r) => child.once('exit', r))));
    clearInterval(sampler);
    lengths.sort((a, b) => a - b);
    return lengths[Math.floor(lengths.length / 2)]!;
  }

  it('keeps the WAL short while commits and reads never pause, where passive checkpoints alone let it grow', async () => {
    const restartFrames = 1000;
    const kept = await medianWal(restartFrames, 4000);
    for (const db of open.splice(0)) await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir);
    // The same load with the restart never reached: every passive checkpoint finds a commit landed while it copied.
    const passiveOnly = await medianWal(Infinity, 4000);
    expect(kept).toBeLessThan(4 * restartFrames);
    expect(passiveOnly).toBeGreaterThan(8 * restartFrames);
  }, 30_000);
});
