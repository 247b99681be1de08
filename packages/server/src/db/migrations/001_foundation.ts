import type { Kysely } from 'kysely';
import type { DialectKit } from '../dialects/types.js';

/** Candidates, staff, tokens, SMS codes, exams with sections, questions and invitations, audit log. */
export function foundation(kit: DialectKit) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('candidates')
        .addColumn('id', kit.idType, kit.idColumn)
        .addColumn('area_code', 'text', (c) => c.notNull())
        .addColumn('phone', 'text', (c) => c.notNull())
        .addColumn('name', 'text')
        .addColumn('school', 'text')
        .addColumn('major', 'text')
        .addColumn('degree', 'text')
        .addColumn('graduation_year', 'integer')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('last_login_at', 'bigint')
        .addUniqueConstraint('candidates_phone_unique', ['area_code', 'phone'])
        .execute();

      await db.schema
        .createTable('staff')
        .addColumn('id', kit.idType, kit.idColumn)
        .addColumn('area_code', 'text', (c) => c.notNull())
        .addColumn('phone', 'text', (c) => c.notNull().unique())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('disabled', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('auth_tokens')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('subject_id', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('revoked_at', 'bigint')
        .execute();
      await db.schema.createIndex('auth_tokens_subject').on('auth_tokens').columns(['kind', 'subject_id']).execute();

      await db.schema
        .createTable('sms_codes')
        .addColumn('id', kit.idType, kit.idColumn)
        .addColumn('area_code', 'text', (c) => c.notNull())
        .addColumn('phone', 'text', (c) => c.notNull())
        .addColumn('code_hash', 'text', (c) => c.notNull())
        .addColumn('ip', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('consumed_at', 'bigint')
        .execute();
      await db.schema
        .createIndex('sms_codes_phone')
        .on('sms_codes')
        .columns(['phone', 'area_code', 'created_at'])
        .execute();

      await db.schema
        .createTable('exams')
        .addColumn('id', kit.idType, kit.idColumn)
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('mode', 'integer', (c) => c.notNull())
        .addColumn('time_minutes', 'integer', (c) => c.notNull())
        .addColumn('start_at', 'bigint', (c) => c.notNull())
        .addColumn('end_at', 'bigint', (c) => c.notNull())
        .addColumn('settings', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('exam_sections')
        .addColumn('id', kit.idType, kit.idColumn)
        .addColumn('exam_id', 'integer', (c) => c.notNull().references('exams.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('order_num', 'integer', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('questions')
        .addColumn('id', kit.idType, kit.idColumn)
        .addColumn('exam_id', 'integer', (c) => c.notNull().references('exams.id').onDelete('cascade'))
        .addColumn('section_id', 'integer', (c) => c.notNull().references('exam_sections.id').onDelete('cascade'))
        .addColumn('type', 'integer', (c) => c.notNull())
        .addColumn('order_num', 'integer', (c) => c.notNull())
        .addColumn('score', 'real', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('answer_key', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('questions_exam').on('questions').columns(['exam_id', 'order_num']).execute();

      await db.schema
        .createTable('invitations')
        .addColumn('id', kit.idType, kit.idColumn)
        .addColumn('exam_id', 'integer', (c) => c.notNull().references('exams.id').onDelete('cascade'))
        .addColumn('area_code', 'text', (c) => c.notNull())
        .addColumn('phone', 'text', (c) => c.notNull())
        .addColumn('extra_minutes', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('invitations_exam_phone', ['exam_id', 'area_code', 'phone'])
        .execute();
      await db.schema.createIndex('invitations_phone').on('invitations').columns(['area_code', 'phone']).execute();

      await db.schema
        .createTable('audit_log')
        .addColumn('id', kit.idType, kit.idColumn)
        .addColumn('actor_kind', 'text', (c) => c.notNull())
        .addColumn('actor_id', 'integer')
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('target', 'text', (c) => c.notNull())
        .addColumn('detail', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  };
}
