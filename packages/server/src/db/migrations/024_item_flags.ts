import type { Kysely } from 'kysely';

/**
 * Questions the item analysis found to discriminate negatively (stronger candidates did worse on them), one row
 * per frozen question, replaced for its version each time the version's analysis is computed. The bank and the
 * console home read it to warn the bank question's author.
 */
export function itemFlags() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('item_flags')
        .addColumn('question_id', 'integer', (c) => c.primaryKey().references('questions.id').onDelete('cascade'))
        .addColumn('exam_id', 'integer', (c) => c.notNull().references('exams.id').onDelete('cascade'))
        .addColumn('version_id', 'integer', (c) => c.notNull())
        // The bank question the frozen copy came from; null for a question that did not come from the bank.
        .addColumn('bank_question_id', 'integer')
        .addColumn('item_rest', 'double precision')
        .addColumn('upper_lower', 'double precision')
        .addColumn('n', 'integer', (c) => c.notNull())
        .addColumn('flagged_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('item_flags_version').on('item_flags').column('version_id').execute();
      await db.schema.createIndex('item_flags_bank').on('item_flags').column('bank_question_id').execute();
    },
  };
}
