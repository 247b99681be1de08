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
import { isDatabaseUnavailable } from '../database.js';
import { BUSY_WAIT_MS, runDirect, sqliteKit } from './sqlite.js';

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
