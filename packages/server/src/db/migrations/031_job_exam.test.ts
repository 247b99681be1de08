import { describe, expect, it } from 'vitest';
import { testedDialects, withLegacyDb } from '../../test/db.js';

describe.each(await testedDialects())('migration 031 (the exam of a job) on %s', (dialect) => {
  it('gives each earlier job the exam its payload names, when the exam is still there', async () => {
    await withLegacyDb(dialect, '029_attempts_invitation', async ({ db, now, insert, exam, migrateRest }) => {
      const examId = await exam('Campus exam');
      const job = (payload: unknown) =>
        insert('job', { kind: 'results_export', payload: JSON.stringify(payload), state: 'done', created_at: now });
      const ids = {
        exam: await job({ title: 'Results', exam_id: examId }),
        bank: await job({ title: 'Questions', folder_id: 3 }),
        gone: await job({ title: 'Results of a removed exam', exam_id: examId + 100 }),
        odd: await job({ title: 'Odd', exam_id: '1' }),
      };
      await db
        .insertInto('job')
        .values({ kind: 'bank_import', payload: 'not json', state: 'done', created_at: now })
        .execute();

      await migrateRest();
      const rows = await db.selectFrom('job').select(['id', 'exam_id']).orderBy('id').execute();
      const examOf = new Map(rows.map((r: { id: number; exam_id: number | null }) => [r.id, r.exam_id]));
      expect(examOf.get(ids.exam)).toBe(examId);
      expect([examOf.get(ids.bank), examOf.get(ids.gone), examOf.get(ids.odd)]).toEqual([null, null, null]);
      expect(rows).toHaveLength(5);
    });
  });
});
