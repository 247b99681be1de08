/**
 * The queries that ask whether an invitation has an attempt find it through the attempts' invitation index. The
 * reminder sweep runs every minute over every invitation of an open exam; reading all attempts for each made its
 * cost grow with the square of the candidates (25 s of the one process every minute at 19,000 candidates, in the
 * exam bench). Each query's SQL is taken from the repository as it builds it, then the database's own planner is
 * asked how it runs it.
 */
import type { CompiledQuery, Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/schema.js';
import { openTestDb, testedDialects, type TestDb } from '../test/db.js';
import { planOf, sqlRecorder } from '../test/queryPlan.js';
import { InvitationRepository } from './invitations.js';
import { ScheduleRepository } from './schedule.js';

describe.each(await testedDialects())('attempts by invitation on %s', (dialect) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await openTestDb(dialect);
  });
  afterAll(async () => t.drop());

  /** The SQL that `call` makes the repositories send. */
  async function sqlOf(call: (db: Kysely<Database>) => Promise<unknown>): Promise<CompiledQuery> {
    const r = sqlRecorder(dialect);
    await call(r.db);
    const found = r.queries.find((q) => /attempts/.test(q.sql));
    if (!found) throw new Error('the call sent no query over attempts');
    return found;
  }

  /** True when the plan reads attempts by the index on their invitation, never the whole table. */
  function usesIndex(plan: string): boolean {
    return dialect === 'sqlite'
      ? /USING (COVERING )?INDEX attempts_invitation/.test(plan) && !/SCAN a\b/.test(plan)
      : /attempts_invitation/.test(plan) && !/Seq Scan on attempts/.test(plan);
  }

  it("the reminder sweep's check for a started invitation", async () => {
    const query = await sqlOf((db) =>
      new InvitationRepository(db).dueForReminder(
        { id: 1, start_at: 2_000_000 },
        { dedupeKey: 'reminder:30', minutes: 30, laterMinutes: 10 },
        1_000_000,
        0,
        500,
      ),
    );
    const plan = await planOf(t.handle.db, dialect, query);
    expect(usesIndex(plan), plan).toBe(true);
  });

  it('revoking only invitations nobody started', async () => {
    const query = await sqlOf((db) => new InvitationRepository(db).revoke(1, [1, 2, 3], 'moved', 1_000_000));
    const plan = await planOf(t.handle.db, dialect, query);
    expect(usesIndex(plan), plan).toBe(true);
  });

  it("the schedule's latest attempt of each invitation", async () => {
    const query = await sqlOf((db) => new ScheduleRepository(db).latestAttempts([1, 2, 3]));
    const plan = await planOf(t.handle.db, dialect, query);
    expect(usesIndex(plan), plan).toBe(true);
  });
});
