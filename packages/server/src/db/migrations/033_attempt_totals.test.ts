import { describe, expect, it } from 'vitest';
import { testedDialects, withLegacyDb } from '../../test/db.js';

describe.each(await testedDialects())('migration 033 (kept ranking totals) on %s', (dialect) => {
  it("fills in every earlier attempt's section points, pending answers and ranking keys", async () => {
    await withLegacyDb(dialect, '032_sweep_indexes', async ({ db, now, insert: id, exam: newExam, migrateRest }) => {
      const exam = await newExam('Campus exam');
      const section = (kind: string, order_num: number) =>
        id('exam_sections', { exam_id: exam, kind, title: kind, order_num });
      const [linetest, major] = [await section('linetest', 1), await section('major', 2)];
      const question = (section_id: number, order_num: number, score: number) =>
        id('questions', {
          exam_id: exam,
          section_id,
          kind: 'single',
          type: 1,
          order_num,
          score,
          content: '{}',
          answer_key: '{}',
        });
      const q = [await question(linetest, 1, 5), await question(linetest, 2, 2.5), await question(major, 3, 10)];
      const attempt = async (i: number, score: number | null, points: (number | null)[], source = 'auto') => {
        const phone = `1380000000${i}`;
        const candidate = await id('candidates', { area_code: '86', phone, created_at: now });
        const invitation = await id('invitations', {
          exam_id: exam,
          area_code: '86',
          phone,
          extra_minutes: 0,
          created_at: now,
        });
        const a = await id('attempts', {
          exam_id: exam,
          candidate_id: candidate,
          invitation_id: invitation,
          mode: 1,
          phase: 3,
          created_at: now,
          score,
          max_score: 17.5,
        });
        for (const [j, p] of points.entries()) {
          await db
            .insertInto('question_scores')
            .values({
              attempt_id: a,
              question_id: q[j],
              exam_id: exam,
              source: j === 2 ? source : 'auto',
              points: p,
              max: [5, 2.5, 10][j],
              updated_at: now,
            })
            .execute();
        }
        return a;
      };
      const scored = await attempt(1, 14.25, [5, 1.25, 8]);
      const waiting = await attempt(2, 2.5, [0, 2.5, null], 'manual');
      const bare = await attempt(3, null, []);

      await migrateRest();
      const rows = await db
        .selectFrom('attempts')
        .select([
          'id',
          'linetest_points',
          'linetest_max',
          'major_points',
          'major_max',
          'pending_marks',
          'rank_total',
          'rank_linetest',
          'rank_major',
        ])
        .orderBy('id')
        .execute();
      const kept = new Map(
        rows.map(({ id: a, ...r }: Record<string, unknown>) => [a, Object.values(r).map((v) => Number(v))]),
      );
      expect(kept.get(scored)).toEqual([6.25, 7.5, 8, 10, 0, 1425, 625, 800]);
      expect(kept.get(waiting)).toEqual([2.5, 7.5, 0, 10, 1, 250, 250, 0]);
      expect(kept.get(bare)).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    });
  });
});
