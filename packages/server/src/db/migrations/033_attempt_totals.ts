import { sql, type Kysely } from 'kysely';

/** Attempts of an exam the backfill works on at a time. */
interface TotalsSchema {
  attempts: { id: number; exam_id: number };
}

/** The sum of a section's points (or worth) of the attempt being updated, as GradingRepository.keepTotals has it. */
const section = (kind: string, value: 'points' | 'max') =>
  sql<number>`coalesce((select sum(${sql.raw(value === 'points' ? 'coalesce(qs.points, 0)' : 'qs.max')})
    from question_scores qs
    inner join questions q on q.id = qs.question_id
    inner join exam_sections s on s.id = q.section_id
    where qs.attempt_id = attempts.id and s.kind = ${kind}), 0)`;

/**
 * Rankings are kept, not recomputed: each attempt holds its sections' points and worth, the answers waiting for a
 * grader and the ranking's keys (hundredths of a point, by total and by section), written with its per-question rows
 * and score (GradingRepository.keepTotals). An index per key in the ranking's order makes a page of it one indexed
 * read; summing every question of every finished attempt at each read took about a second at 50,000 attempts.
 * Attempts from before are filled in, exam by exam.
 */
export function attemptTotals() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      for (const column of ['linetest_points', 'linetest_max', 'major_points', 'major_max']) {
        await db.schema
          .alterTable('attempts')
          .addColumn(column, 'double precision', (c) => c.notNull().defaultTo(0))
          .execute();
      }
      for (const column of ['pending_marks', 'rank_total', 'rank_linetest', 'rank_major']) {
        await db.schema
          .alterTable('attempts')
          .addColumn(column, 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
      }
      const exams = await (db as Kysely<TotalsSchema>)
        .selectFrom('attempts')
        .select('exam_id')
        .distinct()
        .orderBy('exam_id')
        .execute();
      for (const { exam_id } of exams) {
        await sql`update attempts set
            linetest_points = ${section('linetest', 'points')},
            linetest_max = ${section('linetest', 'max')},
            major_points = ${section('major', 'points')},
            major_max = ${section('major', 'max')},
            pending_marks = (select count(*) from question_scores qs
              where qs.attempt_id = attempts.id and qs.source = 'manual' and qs.points is null),
            rank_total = round(coalesce(attempts.score, 0) * 100),
            rank_linetest = round(${section('linetest', 'points')} * 100),
            rank_major = round(${section('major', 'points')} * 100)
          where exam_id = ${exam_id}`.execute(db);
      }
      // The ranking's order (key down, attempt up) among an exam's finished attempts that count.
      for (const key of ['rank_total', 'rank_linetest', 'rank_major']) {
        await db.schema
          .createIndex(`attempts_${key}`)
          .on('attempts')
          .columns(['exam_id', 'phase', 'preview', `${key} desc`, 'id'])
          .execute();
      }
    },
  };
}
