import type { Kysely } from 'kysely';

/**
 * A version counts the corrections of its frozen keys (a key fixed by grading), so every API process can tell
 * that its cached copy of the version is out of date before it scores with it.
 */
export function versionKeyRevision() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('exam_versions')
        .addColumn('key_revision', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
  };
}
