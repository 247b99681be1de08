import type { Kysely } from 'kysely';
import type { DialectKit } from '../dialects/types.js';

/**
 * Invitations by SMS: a revoked invitation no longer opens its exam; every text sent to a candidate (the
 * invitation, reminders, resends) is one row with its delivery state, retried until the gateway takes it;
 * and each exam's texts (templates and reminder times).
 */
export function invitationSms(kit: DialectKit) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('invitations').addColumn('revoked_at', 'bigint').execute();
      await db.schema
        .alterTable('invitations')
        .addColumn('revoke_reason', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema
        .createTable('sms_messages')
        .addColumn('id', kit.idType, kit.idColumn)
        .addColumn('invitation_id', 'integer', (c) => c.notNull().references('invitations.id').onDelete('cascade'))
        .addColumn('exam_id', 'integer', (c) => c.notNull().references('exams.id').onDelete('cascade'))
        .addColumn('area_code', 'text', (c) => c.notNull())
        .addColumn('phone', 'text', (c) => c.notNull())
        // 'invitation', 'reminder' or 'resend'.
        .addColumn('purpose', 'text', (c) => c.notNull())
        // One text per (invitation, key): 'invitation', 'reminder:1440', 'resend:3'.
        .addColumn('dedupe_key', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        // 'queued', 'sending', 'sent', 'failed' or 'cancelled'.
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('tries', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('last_error', 'text')
        .addColumn('next_try_at', 'bigint', (c) => c.notNull())
        .addColumn('lease_until', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('sent_at', 'bigint')
        .addColumn('created_by', 'integer')
        .addUniqueConstraint('sms_messages_once', ['invitation_id', 'dedupe_key'])
        .execute();
      await db.schema.createIndex('sms_messages_due').on('sms_messages').columns(['state', 'next_try_at']).execute();
      await db.schema.createIndex('sms_messages_exam').on('sms_messages').columns(['exam_id', 'state']).execute();
      await db.schema
        .createTable('exam_sms')
        .addColumn('exam_id', 'integer', (c) => c.primaryKey().references('exams.id').onDelete('cascade'))
        .addColumn('invitation_template', 'text', (c) => c.notNull())
        .addColumn('reminder_template', 'text', (c) => c.notNull())
        // JSON array of minutes before the window opens, e.g. [1440, 60].
        .addColumn('reminder_minutes', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_by', 'integer')
        .execute();
    },
  };
}
