import type { Kysely } from 'kysely';
import type { DialectKit } from '../dialects/types.js';

/** Attempts, answers with their event log, audio plays, risk records, files, feedback, positions, settings. */
export function attempts(kit: DialectKit) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('app_settings')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('attempts')
        .addColumn('id', kit.idType, kit.idColumn)
        .addColumn('exam_id', 'integer', (c) => c.notNull().references('exams.id').onDelete('cascade'))
        .addColumn('candidate_id', 'integer', (c) => c.notNull().references('candidates.id').onDelete('cascade'))
        .addColumn('invitation_id', 'integer', (c) => c.notNull().references('invitations.id').onDelete('cascade'))
        .addColumn('mode', 'integer', (c) => c.notNull())
        .addColumn('phase', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('started_at', 'bigint')
        .addColumn('end_at', 'bigint')
        .addColumn('finished_at', 'bigint')
        .addColumn('finish_reason', 'text')
        .addColumn('score', 'real')
        .addColumn('max_score', 'real')
        .addColumn('cuts_used', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createIndex('attempts_candidate_exam')
        .on('attempts')
        .columns(['candidate_id', 'exam_id', 'id'])
        .execute();
      await db.schema.createIndex('attempts_open_end').on('attempts').columns(['phase', 'end_at']).execute();

      await db.schema
        .createTable('answers')
        .addColumn('attempt_id', 'integer', (c) => c.notNull().references('attempts.id').onDelete('cascade'))
        .addColumn('question_id', 'integer', (c) => c.notNull().references('questions.id').onDelete('cascade'))
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('seq', 'integer', (c) => c.notNull())
        .addColumn('saved_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('answers_pk', ['attempt_id', 'question_id'])
        .execute();

      await db.schema
        .createTable('answer_events')
        .addColumn('id', kit.idType, kit.idColumn)
        .addColumn('attempt_id', 'integer', (c) => c.notNull().references('attempts.id').onDelete('cascade'))
        .addColumn('question_id', 'integer', (c) => c.notNull())
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('seq', 'integer', (c) => c.notNull())
        .addColumn('event', 'integer')
        .addColumn('value', 'text')
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('changed_at', 'bigint', (c) => c.notNull())
        .addColumn('received_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('answer_events_client', ['attempt_id', 'client_id'])
        .execute();

      await db.schema
        .createTable('audio_plays')
        .addColumn('attempt_id', 'integer', (c) => c.notNull().references('attempts.id').onDelete('cascade'))
        .addColumn('question_id', 'integer', (c) => c.notNull())
        .addColumn('play_count', 'integer', (c) => c.notNull())
        .addColumn('last_played_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('audio_plays_pk', ['attempt_id', 'question_id'])
        .execute();

      await db.schema
        .createTable('risk_records')
        .addColumn('id', kit.idType, kit.idColumn)
        .addColumn('attempt_id', 'integer', (c) => c.notNull().references('attempts.id').onDelete('cascade'))
        .addColumn('risk', 'integer', (c) => c.notNull())
        .addColumn('category', 'integer', (c) => c.notNull())
        .addColumn('trigger_time', 'bigint', (c) => c.notNull())
        .addColumn('detail', 'text', (c) => c.notNull())
        .addColumn('image_key', 'text')
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('prev_hash', 'text', (c) => c.notNull())
        .addColumn('hash', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('risk_records_client', ['attempt_id', 'client_id'])
        .addUniqueConstraint('risk_records_chain', ['attempt_id', 'prev_hash'])
        .execute();

      await db.schema
        .createTable('stored_files')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('owner_kind', 'text', (c) => c.notNull())
        .addColumn('owner_id', 'integer', (c) => c.notNull())
        .addColumn('file_name', 'text', (c) => c.notNull())
        .addColumn('mime', 'text', (c) => c.notNull())
        .addColumn('size', 'integer', (c) => c.notNull())
        .addColumn('sha256', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('stored_files_owner')
        .on('stored_files')
        .columns(['owner_kind', 'owner_id'])
        .execute();

      await db.schema
        .createTable('resumes')
        .addColumn('candidate_id', 'integer', (c) => c.primaryKey().references('candidates.id').onDelete('cascade'))
        .addColumn('file_key', 'text', (c) => c.notNull())
        .addColumn('uploaded_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('feedback')
        .addColumn('id', kit.idType, kit.idColumn)
        .addColumn('exam_id', 'integer', (c) => c.notNull().references('exams.id').onDelete('cascade'))
        .addColumn('candidate_id', 'integer', (c) => c.notNull().references('candidates.id').onDelete('cascade'))
        .addColumn('rating', 'integer', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('feedback_client', ['candidate_id', 'client_id'])
        .execute();

      await db.schema
        .createTable('positions')
        .addColumn('id', kit.idType, kit.idColumn)
        .addColumn('exam_id', 'integer', (c) => c.references('exams.id').onDelete('cascade'))
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('department', 'text', (c) => c.notNull())
        .addColumn('city', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('min_ratio', 'real', (c) => c.notNull())
        .execute();
    },
  };
}
