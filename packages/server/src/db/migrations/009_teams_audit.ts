import { sql, type Kysely } from 'kysely';
import type { DialectKit } from '../dialects/types.js';

/**
 * Access per resource and a readable audit log. Teams own exams (and, from 010, bank folders and questions);
 * staff belong to at most one team; proctors and graders work on the exams they are assigned to
 * (exam_staff). Audit entries gain the actor's name at the time, the object as kind and id (so the log is
 * filtered by object without parsing `target`), and JSON snapshots of the object before and after.
 */
export function teamsAudit(kit: DialectKit) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('teams')
        .addColumn('id', kit.idType, kit.idColumn)
        .addColumn('name', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      // One column per statement: SQLite's ALTER TABLE adds a single column at a time.
      await db.schema
        .alterTable('staff')
        .addColumn('team_id', 'integer', (c) => c.references('teams.id'))
        .execute();
      await db.schema
        .alterTable('exams')
        .addColumn('team_id', 'integer', (c) => c.references('teams.id'))
        .execute();
      await db.schema.createIndex('staff_team').on('staff').column('team_id').execute();
      await db.schema.createIndex('exams_team').on('exams').column('team_id').execute();

      await db.schema
        .createTable('exam_staff')
        .addColumn('exam_id', 'integer', (c) => c.notNull().references('exams.id').onDelete('cascade'))
        .addColumn('staff_id', 'integer', (c) => c.notNull().references('staff.id').onDelete('cascade'))
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('exam_staff_unique', ['exam_id', 'staff_id', 'role'])
        .execute();
      // The access check and a proctor's list look up by staff member.
      await db.schema.createIndex('exam_staff_staff').on('exam_staff').columns(['staff_id', 'exam_id']).execute();

      await db.schema
        .alterTable('audit_log')
        .addColumn('actor_name', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema
        .alterTable('audit_log')
        .addColumn('object_kind', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema.alterTable('audit_log').addColumn('object_id', 'integer').execute();
      await db.schema.alterTable('audit_log').addColumn('before', 'text').execute();
      await db.schema.alterTable('audit_log').addColumn('after', 'text').execute();

      // Earlier entries named their object only in `target` ('kind:id'): split it once, here.
      const old = await sql<{ id: number; target: string; actor_id: number | null }>`
        select id, target, actor_id from audit_log`.execute(db);
      for (const row of old.rows) {
        const [target = '', id = ''] = row.target.split(':');
        // Risk records are 'record' objects now, as the access check names them.
        const kind = target === 'risk_record' ? 'record' : target;
        const objectId = /^\d{1,9}$/.test(id) ? Number(id) : null;
        await sql`update audit_log set object_kind = ${kind}, object_id = ${objectId} where id = ${row.id}`.execute(db);
      }
      await sql`update audit_log set actor_name = coalesce((select name from staff where staff.id = audit_log.actor_id), '')
        where actor_id is not null`.execute(db);

      // The console's filters: by time (the default order), actor, action, object.
      await db.schema.createIndex('audit_log_time').on('audit_log').columns(['created_at', 'id']).execute();
      await db.schema.createIndex('audit_log_actor').on('audit_log').columns(['actor_id', 'created_at']).execute();
      await db.schema.createIndex('audit_log_action').on('audit_log').columns(['action', 'created_at']).execute();
      await db.schema
        .createIndex('audit_log_object')
        .on('audit_log')
        .columns(['object_kind', 'object_id', 'created_at'])
        .execute();
    },
  };
}
