import type { Kysely } from 'kysely';

/**
 * Item analysis is kept, not recomputed at each view: a job on the worker computes a version's figures (2.7 s of
 * CPU and a read of every score at 50,000 attempts) and keeps them with the state of the scores it read. Each attempt
 * now counts the writes of its scores (`score_writes`, with its kept totals), so the exam's attempts and the sum of
 * their counts say whether any score changed since: a view answers the kept figures or queues new ones. (No index
 * for it: one led by the version made the analysis's own reads probe answers attempt by attempt, 2.5 times slower;
 * the exam's index finds the attempts.)
 */
export function itemAnalyses() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('attempts')
        .addColumn('score_writes', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createTable('item_analyses')
        .addColumn('version_id', 'integer', (c) => c.primaryKey())
        .addColumn('exam_id', 'integer', (c) => c.notNull())
        // '<attempts>:<sum of their score_writes>' of the exam when the job read its scores.
        .addColumn('basis', 'text', (c) => c.notNull())
        .addColumn('computed_at', 'bigint', (c) => c.notNull())
        // JSON: the exam's figures and every scored question's (ItemAnalysisData's `exam` and all `items`).
        .addColumn('data', 'text', (c) => c.notNull())
        .execute();
    },
  };
}
