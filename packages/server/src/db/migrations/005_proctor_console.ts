import type { Kysely } from 'kysely';
import type { DialectKit } from '../dialects/types.js';

/**
 * The proctor console: warnings sent to candidates, proctors' decisions on flags and the candidate's
 * presence. Decisions sit beside the chained fields of a risk record and are not covered by its hash:
 * the chain proves what the candidate's page reported, a decision is a later judgement about it.
 */
export function proctorConsole(kit: DialectKit) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('warnings')
        .addColumn('id', kit.idType, kit.idColumn)
        .addColumn('attempt_id', 'integer', (c) => c.notNull().references('attempts.id').onDelete('cascade'))
        .addColumn('staff_id', 'integer', (c) => c.notNull())
        .addColumn('text', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('read_at', 'bigint')
        .execute();
      await db.schema.createIndex('warnings_attempt').on('warnings').columns(['attempt_id', 'id']).execute();
      // One column per statement: SQLite's ALTER TABLE adds a single column at a time.
      await db.schema.alterTable('risk_records').addColumn('decision', 'text').execute();
      await db.schema
        .alterTable('risk_records')
        .addColumn('decision_note', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema.alterTable('risk_records').addColumn('decided_by', 'integer').execute();
      await db.schema.alterTable('risk_records').addColumn('decided_at', 'bigint').execute();
      await db.schema.alterTable('attempts').addColumn('last_seen_at', 'bigint').execute();
      // finish_reason says 'proctor'; the proctor's own words go to the candidate with the end of the attempt.
      await db.schema
        .alterTable('attempts')
        .addColumn('finish_note', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      // The console lists an exam's attempts; the existing index starts with the candidate.
      await db.schema.createIndex('attempts_exam').on('attempts').columns(['exam_id', 'id']).execute();
    },
  };
}
