import type { Kysely } from 'kysely';

/**
 * The face checks' queue read by source: the browsers' flags are taken before the sampled frames (a proctor waits
 * on a flag's verdict, while a sample only looks for what no browser raised), and sampled frames left pending past
 * their use are skipped. Both read the pending rows of one source in order, which (status, source, id) serves; the
 * index on (status, id) it replaces served neither.
 */
export function faceCheckOrder() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.createIndex('face_checks_due').on('face_checks').columns(['status', 'source', 'id']).execute();
      await db.schema.dropIndex('face_checks_pending').execute();
    },
  };
}
