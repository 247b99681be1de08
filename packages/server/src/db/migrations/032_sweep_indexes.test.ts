import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openTestDb, testedDialects } from '../../test/db.js';
import { finishedAttempts } from '../../test/finishedAttempts.js';
import { migrate } from '../database.js';

describe.each(await testedDialects())('migration 032 (indexes of the periodic tasks) on %s', (dialect) => {
  it("marks each attempt's latest webhook event, which the log's pruning keeps", async () => {
    const test = await openTestDb(dialect, '031_job_exam');
    try {
      // Rows as they stood before, written with the columns of that time.
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const db = test.handle.db as unknown as Kysely<any>;
      const now = Date.UTC(2026, 0, 5);
      const { examId, attemptIds } = await finishedAttempts(test.handle.db, 2, now);
      const [a1, a2] = attemptIds as [number, number];
      const event = async (attempt: number | null) =>
        (
          await db
            .insertInto('webhook_events')
            .values({
              event: attempt === null ? 'ping' : 'attempt.scored',
              attempt_id: attempt,
              exam_id: attempt === null ? null : examId,
              created_at: now,
            })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id as number;
      const ids = [await event(a1), await event(a2), await event(a1), await event(null)];

      await migrate(test.handle);
      const rows = await db.selectFrom('webhook_events').select(['id', 'latest']).orderBy('id').execute();
      expect(rows.map((r: { id: number; latest: number }) => [r.id, Number(r.latest)])).toEqual([
        [ids[0], 0],
        [ids[1], 1],
        [ids[2], 1],
        [ids[3], 0],
      ]);
    } finally {
      await test.drop();
    }
  });
});
