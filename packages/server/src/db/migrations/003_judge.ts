import type { Kysely } from 'kysely';
import type { DialectKit } from '../dialects/types.js';

/** Code runs and submits of candidates, with their results once judged. */
export function judgeRuns(kit: DialectKit) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('judge_runs')
        .addColumn('id', kit.idType, kit.idColumn)
        .addColumn('attempt_id', 'integer', (c) => c.notNull().references('attempts.id').onDelete('cascade'))
        .addColumn('question_id', 'integer', (c) => c.notNull())
        .addColumn('job_id', 'text', (c) => c.notNull().unique())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('language', 'text', (c) => c.notNull())
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('finished_at', 'bigint')
        .addColumn('verdict', 'text')
        .addColumn('passed', 'integer')
        .addColumn('total', 'integer', (c) => c.notNull())
        .addColumn('result', 'text')
        .addUniqueConstraint('judge_runs_client', ['attempt_id', 'client_id'])
        .execute();
      await db.schema
        .createIndex('judge_runs_question')
        .on('judge_runs')
        .columns(['attempt_id', 'question_id', 'mode', 'id'])
        .execute();
    },
  };
}
