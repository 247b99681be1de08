import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openTestDb, testedDialects } from '../../test/db.js';
import { migrate } from '../database.js';

describe.each(await testedDialects())('migration 031 (the exam of a job) on %s', (dialect) => {
  it('gives each earlier job the exam its payload names, when the exam is still there', async () => {
    const test = await openTestDb(dialect, '029_attempts_invitation');
    try {
      // Rows as they stood before, written with the columns of that time.
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const db = test.handle.db as unknown as Kysely<any>;
      const now = Date.UTC(2026, 0, 5);
      const exam = await db
        .insertInto('exams')
        .values({
          name: 'Campus exam',
          description: '',
          mode: 1,
          time_minutes: 60,
          start_at: now,
          end_at: now + 86_400_000,
          settings: '{}',
          created_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const job = async (payload: unknown) =>
        (
          await db
            .insertInto('job')
            .values({ kind: 'results_export', payload: JSON.stringify(payload), state: 'done', created_at: now })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id as number;
      const ids = {
        exam: await job({ title: 'Results', exam_id: exam.id }),
        bank: await job({ title: 'Questions', folder_id: 3 }),
        gone: await job({ title: 'Results of a removed exam', exam_id: exam.id + 100 }),
        odd: await job({ title: 'Odd', exam_id: '1' }),
      };
      await db
        .insertInto('job')
        .values({ kind: 'bank_import', payload: 'not json', state: 'done', created_at: now })
        .execute();

      await migrate(test.handle);
      const rows = await db.selectFrom('job').select(['id', 'exam_id']).orderBy('id').execute();
      const examOf = new Map(rows.map((r: { id: number; exam_id: number | null }) => [r.id, r.exam_id]));
      expect(examOf.get(ids.exam)).toBe(exam.id);
      expect([examOf.get(ids.bank), examOf.get(ids.gone), examOf.get(ids.odd)]).toEqual([null, null, null]);
      expect(rows).toHaveLength(5);
    } finally {
      await test.drop();
    }
  });
});
