import type { Kysely } from 'kysely';
import type { DialectKit } from '../dialects/types.js';

/**
 * Schedules and accommodations. An exam may split its window into time slots, each with a capacity; whether
 * candidates pick their own slot or staff assign it is the exam's `slot_mode`. Each invitation may sit in one
 * slot, carry extra time in minutes (the existing `extra_minutes`, `extra_mode` 'minutes') or as a percentage
 * of the exam's length (`extra_mode` 'percent', `extra_percent`), and a personal window that overrides the
 * slot and the exam's window. Existing invitations keep their meaning: minutes mode, no slot, no window.
 */
export function schedules(kit: DialectKit) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('exam_slots')
        .addColumn('id', kit.idType, kit.idColumn)
        .addColumn('exam_id', 'integer', (c) => c.notNull().references('exams.id').onDelete('cascade'))
        .addColumn('label', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('start_at', 'bigint', (c) => c.notNull())
        .addColumn('end_at', 'bigint', (c) => c.notNull())
        .addColumn('capacity', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('exam_slots_exam').on('exam_slots').columns(['exam_id', 'start_at']).execute();

      await db.schema
        .alterTable('exams')
        .addColumn('slot_mode', 'text', (c) => c.notNull().defaultTo('assigned'))
        .execute();
      // One column per statement: SQLite's ALTER TABLE adds a single column at a time.
      await db.schema
        .alterTable('invitations')
        .addColumn('slot_id', 'integer', (c) => c.references('exam_slots.id'))
        .execute();
      await db.schema
        .alterTable('invitations')
        .addColumn('extra_mode', 'text', (c) => c.notNull().defaultTo('minutes'))
        .execute();
      await db.schema
        .alterTable('invitations')
        .addColumn('extra_percent', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable('invitations').addColumn('window_start', 'bigint').execute();
      await db.schema.alterTable('invitations').addColumn('window_end', 'bigint').execute();
      // Seats taken per slot are counted by slot.
      await db.schema.createIndex('invitations_slot').on('invitations').column('slot_id').execute();
    },
  };
}
