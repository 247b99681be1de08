import type { Kysely } from 'kysely';

/**
 * A job remembers the id of the request that created it, so its log lines carry the same id as the request's
 * (one search finds both). Jobs from before have none.
 */
export function jobRequestId() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('job').addColumn('request_id', 'text').execute();
    },
  };
}
