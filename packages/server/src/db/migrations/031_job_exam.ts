import type { Kysely } from 'kysely';

/** What the backfill reads and writes. */
interface JobExamSchema {
  job: { id: number; payload: string; exam_id: number | null };
  exams: { id: number };
}

/** Rows the backfill reads at a time. */
const BATCH = 500;

/** The exam a stored payload names (`exam_id`, as every job that works on an exam has), or null. */
function examOf(payload: string): number | null {
  try {
    const exam = (JSON.parse(payload) as { exam_id?: unknown } | null)?.exam_id;
    return typeof exam === 'number' && Number.isInteger(exam) && exam > 0 ? exam : null;
  } catch {
    return null;
  }
}

/**
 * A job names the exam it works on (an export, a similarity run, a re-score, bulk invitations), so that proctors
 * and graders follow the jobs of the exams they are assigned to, not every job of their team. Jobs from before
 * take it from their payload.
 */
export function jobExam() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('job')
        .addColumn('exam_id', 'integer', (c) => c.references('exams.id').onDelete('set null'))
        .execute();
      await db.schema.createIndex('job_exam').on('job').columns(['exam_id', 'id']).execute();
      const jobs = db as Kysely<JobExamSchema>;
      for (let after = 0; ;) {
        const rows = await jobs
          .selectFrom('job')
          .select(['id', 'payload'])
          .where('id', '>', after)
          .orderBy('id')
          .limit(BATCH)
          .execute();
        if (rows.length === 0) break;
        for (const r of rows) {
          const exam = examOf(r.payload);
          if (exam === null) continue;
          // A job of an exam removed since keeps no exam (as the foreign key would leave it).
          await jobs
            .updateTable('job')
            .set({ exam_id: exam })
            .where('id', '=', r.id)
            .where((eb) => eb.exists(eb.selectFrom('exams').select('exams.id').where('exams.id', '=', exam)))
            .execute();
        }
        after = rows[rows.length - 1]!.id;
      }
    },
  };
}
