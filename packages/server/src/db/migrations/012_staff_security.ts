import type { Kysely } from 'kysely';
import type { DialectKit } from '../dialects/types.js';

/**
 * Staff login hardening. Login tries are counted per phone in the database, known account or not, so that
 * one conditional upsert can reserve a try before the slow password check and every API process sees the
 * same count. Accounts may add a second factor (TOTP): the confirmed secret, the one being enrolled, and the
 * last time step used (a code is accepted once). Recovery codes are kept as SHA-256 hashes, each used once.
 */
export function staffSecurity(kit: DialectKit) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('staff_login_tries')
        .addColumn('phone', 'text', (c) => c.primaryKey())
        .addColumn('tries', 'integer', (c) => c.notNull())
        .addColumn('window_ends', 'bigint', (c) => c.notNull())
        .execute();
      // One column per statement: SQLite's ALTER TABLE adds a single column at a time.
      await db.schema.alterTable('staff').addColumn('totp_secret', 'text').execute();
      await db.schema.alterTable('staff').addColumn('totp_pending_secret', 'text').execute();
      await db.schema.alterTable('staff').addColumn('totp_last_step', 'bigint').execute();
      await db.schema
        .createTable('staff_recovery_codes')
        .addColumn('id', kit.idType, kit.idColumn)
        .addColumn('staff_id', 'integer', (c) => c.notNull().references('staff.id').onDelete('cascade'))
        .addColumn('code_hash', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('used_at', 'bigint')
        .addUniqueConstraint('staff_recovery_codes_unique', ['staff_id', 'code_hash'])
        .execute();
    },
  };
}
