import type { Kysely } from 'kysely';

/**
 * What each attempt may keep in object storage and what it has used: the local store counts every upload
 * against it (a conditional update, so concurrent uploads on any number of API processes never pass the
 * limit together); on S3-compatible storage the recording step does. One row per storage prefix.
 */
export function storageQuota() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('storage_usage')
        .addColumn('prefix', 'text', (c) => c.primaryKey())
        .addColumn('max_bytes', 'bigint', (c) => c.notNull())
        .addColumn('max_objects', 'integer', (c) => c.notNull())
        .addColumn('bytes', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('objects', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
  };
}
