import type { Kysely } from 'kysely';

/**
 * A question's explanation (解析) and its feedback per option, as JSON `{"text": ..., "options": {...}}` (null: none):
 * kept by bank questions, by an import's staged rows until they are published, and by the copies frozen into an
 * exam's versions, so a candidate reads what the version was published with.
 */
export function explanations() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      for (const table of ['bank_questions', 'bank_import_rows', 'questions']) {
        await db.schema.alterTable(table).addColumn('explanation', 'text').execute();
      }
    },
  };
}
