import type { Kysely } from 'kysely';
import type { DialectKit } from '../dialects/types.js';

/**
 * Evidence in the attempt's chain: risk records also hold checks and evidence files (kind, SHA-256, size),
 * and attempts keep their monitor data (first picture, signature, microphone, when the phone was last seen).
 */
export function evidence(_kit: DialectKit) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      // One column per statement: SQLite's ALTER TABLE adds one at a time.
      await db.schema
        .alterTable('risk_records')
        .addColumn('kind', 'text', (c) => c.notNull().defaultTo('risk'))
        .execute();
      await db.schema.alterTable('risk_records').addColumn('sha256', 'text').execute();
      await db.schema.alterTable('risk_records').addColumn('size', 'integer').execute();
      await db.schema
        .createIndex('risk_records_kind')
        .on('risk_records')
        .columns(['attempt_id', 'kind', 'id'])
        .execute();
      await db.schema.alterTable('attempts').addColumn('first_picture_key', 'text').execute();
      await db.schema.alterTable('attempts').addColumn('signature_key', 'text').execute();
      await db.schema.alterTable('attempts').addColumn('microphone_id', 'text').execute();
      await db.schema.alterTable('attempts').addColumn('phone_seen_at', 'bigint').execute();
    },
  };
}
