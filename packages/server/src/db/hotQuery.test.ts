import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestDb, testedDialects, type TestDb } from '../test/db.js';
import { hotQuery } from './hotQuery.js';

const read = hotQuery((db, p: { key: string }) =>
  db.selectFrom('app_settings').select('value').where('key', '=', p.key),
);
const gatheredRead = hotQuery(
  (db, p: { key: string }) => db.selectFrom('app_settings').select('value').where('key', '=', p.key),
  { gather: true },
);
const write = hotQuery((db, p: { key: string; value: string }) =>
  db.insertInto('app_settings').values({ key: p.key, value: p.value }),
);

const valueOf = async (q: typeof read, db: TestDb['handle']['db'], key: string) =>
  (await q(db, { key })).rows[0]?.value ?? null;

// Hot queries run directly on the SQLite connection when they may; these pin down when they may not.
describe.each(await testedDialects())('hot queries on %s', (dialect) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await openTestDb(dialect);
  });
  afterEach(async () => t.drop());

  it('keep a read out of another request’s open transaction: it sees committed data only', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const trx = t.handle.db.transaction().execute(async (tx) => {
      await write(tx, { key: 'k', value: 'uncommitted' });
      await held;
    });
    await new Promise((r) => setTimeout(r, 20));
    const during = valueOf(read, t.handle.db, 'k');
    const gathered = valueOf(gatheredRead, t.handle.db, 'k');
    const settled = await Promise.race([
      during.then(() => 'read'),
      new Promise((r) => setTimeout(() => r('waiting'), 50)),
    ]);
    // SQLite has one connection: the read waits for the transaction instead of reading inside it.
    if (dialect === 'sqlite') expect(settled).toBe('waiting');
    else {
      // PostgreSQL reads on another pooled connection while the transaction is still open.
      expect(await during).toBeNull();
      expect(await gathered).toBeNull();
    }
    release();
    await trx;
    if (dialect === 'sqlite') {
      expect(await during).toBe('uncommitted');
      expect(await gathered).toBe('uncommitted');
    }
    expect(await valueOf(read, t.handle.db, 'k')).toBe('uncommitted');
  });

  it('make a write inside a transaction part of it: a rollback takes it back', async () => {
    await expect(
      t.handle.db.transaction().execute(async (tx) => {
        await write(tx, { key: 'gone', value: 'x' });
        expect(await valueOf(read, tx, 'gone')).toBe('x');
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await valueOf(read, t.handle.db, 'gone')).toBeNull();
    expect(await valueOf(gatheredRead, t.handle.db, 'gone')).toBeNull();
  });

  it('answer gathered reads of one turn each with its own row', async () => {
    for (const key of ['a', 'b', 'c']) await write(t.handle.db, { key, value: key.toUpperCase() });
    const values = await Promise.all(['a', 'b', 'c', 'none'].map((key) => valueOf(gatheredRead, t.handle.db, key)));
    expect(values).toEqual(['A', 'B', 'C', null]);
  });
});
