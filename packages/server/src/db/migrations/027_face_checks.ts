import type { Kysely } from 'kysely';
import type { DialectKit } from '../dialects/types.js';

/**
 * The server's face checks of camera frames taken during the exam: the frames a browser's face monitor flagged
 * (one row per risk record) and a sample of the others (one row per sampled frame record), each done once by
 * whichever API process holds its lease, with what the server saw and whether it agrees.
 */
export function faceChecks(kit: DialectKit) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('face_checks')
        .addColumn('id', kit.idType, kit.idColumn)
        .addColumn('attempt_id', 'integer', (c) => c.notNull().references('attempts.id').onDelete('cascade'))
        // 'flagged' (a browser's risk record) or 'sampled' (a frame the browser did not flag).
        .addColumn('source', 'text', (c) => c.notNull())
        // The risk record (flagged) or frame record (sampled) checked; one check each.
        .addColumn('record_id', 'integer', (c) => c.notNull().unique())
        .addColumn('image_key', 'text', (c) => c.notNull())
        // The browser's finding (its risk record's detail kind), null for a sampled frame.
        .addColumn('browser_finding', 'text')
        // 'pending', 'done' or 'failed' (the picture could not be read).
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('tries', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('lease_until', 'bigint')
        // What the server saw: faces, best phone score, its finding's detail kind (null: nothing wrong).
        .addColumn('faces', 'integer')
        .addColumn('phone_score', 'double precision')
        .addColumn('server_finding', 'text')
        // 1 when the server's finding is the browser's (flagged), null for a sampled frame.
        .addColumn('agrees', 'integer')
        // The chain record the check wrote: its verification (flagged) or the risk it raised (sampled).
        .addColumn('result_record_id', 'integer')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('checked_at', 'bigint')
        .execute();
      await db.schema.createIndex('face_checks_pending').on('face_checks').columns(['status', 'id']).execute();
      await db.schema.createIndex('face_checks_attempt').on('face_checks').column('attempt_id').execute();
    },
  };
}
