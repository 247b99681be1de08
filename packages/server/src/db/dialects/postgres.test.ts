/**
 * Migrating a schema while other connections drop theirs: tests do it all the time (a schema each), and an
 * introspector reading every schema failed the migration with "schema ... does not exist".
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openTestDb } from '../../test/db.js';
import { requirePart, TEST_DATABASE_URL } from '../../test/parts.js';

describe('PostgreSQL migrations beside other schemas coming and going', () => {
  it("the migrator's question of which tables exist sees its own schema and never fails", async () => {
    if (!(await requirePart('postgres'))) return;
    const churn = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await churn.connect();
    let stop = false;
    let churned = 0;
    // Another test's schemas: made with tables of their own and dropped, again and again.
    const churning = (async () => {
      while (!stop) {
        const schema = `t_churn_${randomBytes(4).toString('hex')}`;
        const tables = Array.from({ length: 40 }, (_, i) => `create table ${schema}.x${i} (id serial primary key);`);
        await churn.query(`create schema ${schema}; ${tables.join(' ')}`);
        await churn.query(`drop schema ${schema} cascade`);
        churned++;
      }
    })();
    const failures: string[] = [];
    let asked = 0;
    try {
      const db = await openTestDb('postgres');
      // What the migrator asks before each run, asked for 6 s: Kysely's own introspector failed about one time
      // in 30 here.
      for (const until = Date.now() + 6000; Date.now() < until; asked++) {
        const tables = await db.handle.db.introspection.getTables().catch((err: Error) => {
          failures.push(err.message);
          return [];
        });
        if (tables.length > 0 && tables.some((t) => t.schema !== db.handle.schema)) failures.push('another schema');
      }
      await db.drop();
    } finally {
      stop = true;
      await churning;
      await churn.end();
    }
    expect(churned).toBeGreaterThan(3);
    expect(asked).toBeGreaterThan(50);
    expect(failures).toEqual([]);
  }, 60_000);
});
