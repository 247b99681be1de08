/** Reading the audit log in tests: where it stands, and what was written after. */
import type { TestApp } from './app.js';

/** The newest audit entry's id (0 when there is none). */
export async function lastAuditId(t: TestApp): Promise<number> {
  const row = await t.db.handle.db
    .selectFrom('audit_log')
    .select('id')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.id ?? 0;
}

/** The audit entries written after entry `since`, oldest first. */
export function auditEntriesSince(t: TestApp, since: number) {
  return t.db.handle.db.selectFrom('audit_log').selectAll().where('id', '>', since).orderBy('id').execute();
}

/** How many audit entries there are. */
export async function auditCount(t: TestApp): Promise<number> {
  const row = await t.db.handle.db
    .selectFrom('audit_log')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The audit entries of `action` (on object `objectId` when given), oldest first. */
export function auditEntriesOf(t: TestApp, action: string, objectId?: number) {
  let entries = t.db.handle.db.selectFrom('audit_log').selectAll().where('action', '=', action);
  if (objectId !== undefined) entries = entries.where('object_id', '=', objectId);
  return entries.orderBy('id').execute();
}

/** The newest audit entry of `action` (on object `objectId` when given); throws when there is none. */
export async function lastAuditEntry(t: TestApp, action: string, objectId?: number) {
  const entry = (await auditEntriesOf(t, action, objectId)).at(-1);
  if (!entry) throw new Error(`no audit entry ${action}${objectId === undefined ? '' : ` of ${objectId}`}`);
  return entry;
}
