import type { Kysely } from 'kysely';
import type { DialectKit } from '../dialects/types.js';

/**
 * The durable record of every long or background job (imports, bulk invitations, exports, ...): whichever
 * runner carries the work (this process or BullMQ workers), the state, progress and result live here, so the
 * console lists jobs the same way in either mode. A runner holds a job by a lease (`locked_by`,
 * `lease_until`); a job whose lease ran out because its process died is taken over and resumes from `cursor`,
 * which handlers store in the same transaction as their effect.
 */
export function jobs(kit: DialectKit) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('job')
        .addColumn('id', kit.idType, kit.idColumn)
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('owner_staff_id', 'integer', (c) => c.references('staff.id').onDelete('set null'))
        .addColumn('team_id', 'integer', (c) => c.references('teams.id').onDelete('set null'))
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('progress_done', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('progress_total', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('progress_phase', 'text')
        .addColumn('cursor', 'text')
        .addColumn('result', 'text')
        .addColumn('error_code', 'text')
        .addColumn('error_message', 'text')
        .addColumn('cancel_requested', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('locked_by', 'text')
        .addColumn('lease_until', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('started_at', 'bigint')
        .addColumn('finished_at', 'bigint')
        .execute();
      // Runners look for work by state; the console lists by owner and team, newest first.
      await db.schema.createIndex('job_state').on('job').columns(['state', 'id']).execute();
      await db.schema.createIndex('job_team').on('job').columns(['team_id', 'id']).execute();
      await db.schema.createIndex('job_owner').on('job').columns(['owner_staff_id', 'id']).execute();
    },
  };
}
