import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestDb, testedDialects, type TestDb } from '../test/db.js';
import type { Db } from './database.js';
import { gathered } from './gather.js';

describe.each(await testedDialects())('gathered reads on %s', (dialect) => {
  let t: TestDb;
  let statements: number;
  beforeEach(async () => {
    t = await openTestDb(dialect);
    statements = 0;
    await t.handle.db
      .insertInto('app_settings')
      .values([
        { key: 'a', value: '1' },
        { key: 'b', value: '2' },
      ])
      .execute();
  });
  afterEach(async () => t.drop());

  const valueOf = gathered(async (db: Db, keys: readonly string[]) => {
    statements += 1;
    const rows = await db
      .selectFrom('app_settings')
      .selectAll()
      .where('key', 'in', [...keys])
      .execute();
    return keys.map((k) => rows.find((r) => r.key === k)?.value);
  });

  it('runs the reads of one turn of the event loop as one statement, each answered with its own row', async () => {
    expect(await Promise.all(['b', 'missing', 'a', 'b'].map((k) => valueOf(t.handle.db, k)))).toEqual([
      '2',
      undefined,
      '1',
      '2',
    ]);
    expect(statements).toBe(1);
    expect(await valueOf(t.handle.db, 'a')).toBe('1');
    expect(statements).toBe(2);
  });

  it('fails every read of a statement that fails, and reads on afterwards', async () => {
    const failing = gathered(async (): Promise<string[]> => {
      throw new Error('down');
    });
    const results = await Promise.allSettled([failing(t.handle.db, 'a'), failing(t.handle.db, 'b')]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(await valueOf(t.handle.db, 'b')).toBe('2');
  });
});
