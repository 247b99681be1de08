import type { Kysely } from 'kysely';
import type { DialectKit } from '../dialects/types.js';

/**
 * Code similarity of a programming question: the last computation for each question (how many submissions,
 * its groups) and the pairs it found at or above the stored floor, each with the flag a grader confirms or
 * dismisses. A new computation replaces the open pairs and keeps the decided ones (with their new score).
 */
export function codeSimilarity(kit: DialectKit) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('similarity_runs')
        .addColumn('question_id', 'integer', (c) => c.primaryKey().references('questions.id').onDelete('cascade'))
        .addColumn('exam_id', 'integer', (c) => c.notNull().references('exams.id').onDelete('cascade'))
        .addColumn('job_id', 'integer')
        .addColumn('submissions', 'integer', (c) => c.notNull())
        // JSON array of groups: [{attempt_ids: [...], pairs, max_score}].
        .addColumn('groups', 'text', (c) => c.notNull())
        .addColumn('computed_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('similarity_pairs')
        .addColumn('id', kit.idType, kit.idColumn)
        .addColumn('exam_id', 'integer', (c) => c.notNull().references('exams.id').onDelete('cascade'))
        .addColumn('question_id', 'integer', (c) => c.notNull().references('questions.id').onDelete('cascade'))
        // attempt_a < attempt_b.
        .addColumn('attempt_a', 'integer', (c) => c.notNull().references('attempts.id').onDelete('cascade'))
        .addColumn('attempt_b', 'integer', (c) => c.notNull().references('attempts.id').onDelete('cascade'))
        .addColumn('language', 'text', (c) => c.notNull())
        .addColumn('score', 'real', (c) => c.notNull())
        .addColumn('share_a', 'real', (c) => c.notNull())
        .addColumn('share_b', 'real', (c) => c.notNull())
        .addColumn('matched', 'integer', (c) => c.notNull())
        // 'open', 'confirmed' or 'dismissed'.
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('open'))
        .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('decided_by', 'integer')
        .addColumn('decided_at', 'bigint')
        .addColumn('computed_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('similarity_pairs_once', ['question_id', 'attempt_a', 'attempt_b'])
        .execute();
      await db.schema
        .createIndex('similarity_pairs_rank')
        .on('similarity_pairs')
        .columns(['question_id', 'score'])
        .execute();
    },
  };
}
