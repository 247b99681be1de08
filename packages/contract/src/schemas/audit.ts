import { z } from 'zod';
import { EpochMs, IdParam, PageQuery } from './common.js';

/** A JSON snapshot of an object before or after a change; null when it did not exist (create, delete). */
export const AuditSnapshot = z.record(z.string(), z.unknown()).nullable();
/** A snapshot. */
export type AuditSnapshot = z.infer<typeof AuditSnapshot>;

/** One audit log entry: who did what to which object, when, with the object before and after. */
export const AuditEntry = z.object({
  /** Entry id. */
  id: z.number().int(),
  /** When (epoch ms). */
  time: EpochMs,
  /** 'staff', or 'system' for the server itself (bootstrap, command line). */
  actor_kind: z.enum(['staff', 'system']),
  /** Staff id, or null for the system. */
  actor_id: z.number().int().nullable(),
  /** The actor's name at the time. */
  actor_name: z.string(),
  /** What was done, e.g. 'staff.update', 'proctor.end'. */
  action: z.string(),
  /** Kind of the object changed, e.g. 'staff', 'exam', 'attempt'. */
  object_kind: z.string(),
  /** Id of the object changed, or null. */
  object_id: z.number().int().nullable(),
  /** The object before the change. */
  before: AuditSnapshot,
  /** The object after the change. */
  after: AuditSnapshot,
});
/** One audit log entry. */
export type AuditEntry = z.infer<typeof AuditEntry>;

/** Columns the audit log sorts by. */
export const AUDIT_SORTS = ['time', 'actor', 'action', 'object'] as const;

/** GET /admin/audit query: every filter is optional; paged, newest first unless sorted otherwise. */
export const AuditQuery = PageQuery.extend({
  /** Only this staff member's entries. */
  actor_id: IdParam.optional(),
  /** Only this action (exact), or actions starting with it when it ends with '.' (e.g. 'staff.'). */
  action: z.string().trim().min(1).max(60).optional(),
  /** Only objects of this kind. */
  object_kind: z.string().trim().min(1).max(40).optional(),
  /** Only this object id (with object_kind, one object). */
  object_id: IdParam.optional(),
  /** From this time on (epoch ms, inclusive). */
  from: z.coerce.number().int().min(0).optional(),
  /** Before this time (epoch ms, exclusive). */
  to: z.coerce.number().int().min(0).optional(),
  /** Sort column. */
  sort: z.enum(AUDIT_SORTS).default('time'),
  /** Sort direction. */
  order: z.enum(['asc', 'desc']).default('desc'),
});
/** GET /admin/audit query. */
export type AuditQuery = z.input<typeof AuditQuery>;

/** GET /admin/audit data. */
export const AuditListData = z.object({
  /** One page of entries. */
  list: z.array(AuditEntry),
  /** How many entries match the filters in all. */
  total: z.number().int(),
});
/** GET /admin/audit data. */
export type AuditListData = z.infer<typeof AuditListData>;
