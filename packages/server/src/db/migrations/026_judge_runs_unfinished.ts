import { sql, type Kysely } from 'kysely';

/**
 * The judge's unfinished runs by age, for the sweep that queues again a job the queue lost: a partial index, so
 * it holds only the few runs in progress however many have finished.
 */
export function judgeRunsUnfinished() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createIndex('judge_runs_unfinished')
        .on('judge_runs')
        .column('created_at')
        .where(sql.ref('finished_at'), 'is', null)
        .execute();
    },
  };
}
