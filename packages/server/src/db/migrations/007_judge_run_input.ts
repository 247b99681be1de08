import type { Kysely } from 'kysely';

/**
 * The candidate's own input of a run (null for a run on the samples and for a submit), so that after a
 * reload the page can show the last run with the input it used.
 */
export function judgeRunInput() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('judge_runs').addColumn('input', 'text').execute();
    },
  };
}
