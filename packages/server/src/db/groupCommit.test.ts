import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fail } from '../errors.js';
import { openTestDb, testedDialects, type TestDb } from '../test/db.js';
import type { Db } from './database.js';
import { GroupCommit, oneByOne, type BatchWriter } from './groupCommit.js';

/** One setting written, or refused by the writer when its value says so. */
const put = async (trx: Db, key: string): Promise<string> => {
  if (key.startsWith('refused')) throw fail('conflict', `${key} is refused`);
  await trx.insertInto('app_settings').values({ key, value: 'v' }).execute();
  return key;
};

/** Writes a batch in one multi-row statement, refusing some items without throwing (as the answer writer does). */
const multiRow: BatchWriter<string, string> = {
  one: put,
  async batch(trx, keys) {
    const taken = keys.filter((k) => !k.startsWith('refused'));
    if (taken.length > 0)
      await trx
        .insertInto('app_settings')
        .values(taken.map((key) => ({ key, value: 'v' })))
        .execute();
    return keys.map((k) => (k.startsWith('refused') ? { error: fail('conflict', `${k} is refused`) } : { value: k }));
  },
};

describe.each(await testedDialects())('group commit on %s', (dialect) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await openTestDb(dialect);
  });
  afterEach(async () => t.drop());

  const stored = async () =>
    (
      await t.handle.db.selectFrom('app_settings').select('key').where('key', 'like', 'g%').orderBy('key').execute()
    ).map((r) => r.key);

  it('answers each write only once its batch is committed, and writes that arrive together share one transaction', async () => {
    const commits = new GroupCommit(t.handle.db, multiRow, { lanes: 1 });
    const keys = Array.from({ length: 20 }, (_, i) => `g${String(i).padStart(2, '0')}`);
    // Each answer is checked against a read outside the batch's transaction the moment it arrives.
    const seen = await Promise.all(
      keys.map((k) =>
        commits.run(k).then(async (key) => {
          const row = await t.handle.db
            .selectFrom('app_settings')
            .select('key')
            .where('key', '=', key)
            .executeTakeFirst();
          return row?.key;
        }),
      ),
    );
    expect(seen).toEqual(keys);
    if (dialect === 'postgres') {
      // Rows of one transaction carry its id.
      const { rows } = await sql<{
        n: number;
      }>`select count(distinct xmin::text)::int as n from app_settings where key like 'g%'`.execute(t.handle.db);
      expect(rows[0]!.n).toBe(1);
    }
  });

  it('fails only the item a batch writer refuses; the rest of its batch commits', async () => {
    const commits = new GroupCommit(t.handle.db, multiRow);
    const results = await Promise.allSettled(['g1', 'refused-1', 'g2'].map((k) => commits.run(k)));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await stored()).toEqual(['g1', 'g2']);
  });

  it('rolls back a batch that throws and writes each item alone, so only the failing one fails', async () => {
    await t.handle.db.insertInto('app_settings').values({ key: 'g-taken', value: 'v' }).execute();
    for (const [name, writer] of [
      ['m', multiRow],
      ['o', oneByOne(put)],
    ] as const) {
      const commits = new GroupCommit(t.handle.db, writer);
      // g-taken breaks the batch (a duplicate key); alone, the two others commit.
      const results = await Promise.allSettled([`g${name}1`, 'g-taken', `g${name}2`].map((k) => commits.run(k)));
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    }
    expect(await stored()).toEqual(['g-taken', 'gm1', 'gm2', 'go1', 'go2']);
  });
});
