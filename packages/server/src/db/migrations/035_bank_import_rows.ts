import type { Kysely } from 'kysely';

/**
 * Questions of an import wait here until the whole file is in, then become bank questions in one statement. Storing
 * 20,000 questions row by row held SQLite's one writer for about 0.6 s (longer at the worker's lower priority), and
 * every candidate's save waited; rows are now staged 500 at a time in short transactions and published by one
 * INSERT ... SELECT (about 0.1 s), so an import is still all or nothing for the bank's readers.
 */
export function bankImportRows() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('bank_import_rows')
        // The import's key: 'job:<id>' for a job, a random one for the command line's.
        .addColumn('batch', 'text', (c) => c.notNull())
        .addColumn('seq', 'integer', (c) => c.notNull())
        // JSON array: the sub-folder path below the import's folder.
        .addColumn('folder_path', 'text', (c) => c.notNull())
        // Set when the import is published, from the path.
        .addColumn('folder_id', 'integer')
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('type', 'integer', (c) => c.notNull())
        .addColumn('stem_text', 'text', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('answer_key', 'text', (c) => c.notNull())
        .addColumn('difficulty', 'integer', (c) => c.notNull())
        .addColumn('knowledge_points', 'text', (c) => c.notNull())
        .addColumn('default_score', 'double precision', (c) => c.notNull())
        .addColumn('editor_id', 'integer', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        // JSON array of tags.
        .addColumn('tags', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('bank_import_rows_pk', ['batch', 'seq'])
        .execute();
    },
  };
}
