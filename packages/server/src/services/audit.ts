import {
  api,
  type AuditAction,
  type AuditEntry,
  type AuditObjectKind,
  type AuditListData,
  type AuditSnapshot,
} from '@examhall/contract';
import type { z } from 'zod';
import type { Db } from '../db/database.js';
import { AuditRepository, type AuditRow } from '../repositories/audit.js';
import { authorize, type StaffActor } from './access.js';

/** GET /admin/audit query, as the route receives it. */
export type AuditListInput = z.output<typeof api.auditList.query>;

/** The object an audit entry is about: its kind ('staff', 'exam', 'attempt', ...) and id. */
export interface AuditObject {
  kind: AuditObjectKind;
  id: number | null;
}

/** Keys never stored in a snapshot, at any depth: secrets have no place in a log many people read. */
const SECRET_KEY = /password|token|secret/i;

/** A copy of a snapshot without secret keys; undefined values disappear as JSON does. */
function scrub(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(scrub);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .filter(([k, v]) => !SECRET_KEY.test(k) && v !== undefined)
        .map(([k, v]) => [k, scrub(v)]),
    );
  }
  return value;
}

function parseSnapshot(text: string | null): AuditSnapshot {
  if (text === null) return null;
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function toEntry(r: AuditRow): AuditEntry {
  return {
    id: r.id,
    time: r.created_at,
    actor_kind: r.actor_kind === 'staff' ? 'staff' : 'system',
    actor_id: r.actor_id,
    actor_name: r.actor_name,
    action: r.action,
    object_kind: r.object_kind,
    object_id: r.object_id,
    before: parseSnapshot(r.before),
    after: parseSnapshot(r.after),
  };
}

/**
 * The audit log: every change made from the console, with who, what, when, and the object before and after.
 * Record in the same transaction as the change (`audit.with(trx).record(...)`), so an entry exists exactly
 * when the change does.
 */
export class AuditService {
  private readonly repo: AuditRepository;

  constructor(
    private readonly db: Db,
    private readonly clock: () => number,
  ) {
    this.repo = new AuditRepository(db);
  }

  /** The same service writing through `db` (a transaction). */
  with(db: Db): AuditService {
    return new AuditService(db, this.clock);
  }

  /**
   * Appends one entry. `actor` null is the system (bootstrap, command line). `before` is null for a create,
   * `after` null for a delete; both are plain JSON objects, and keys naming passwords, tokens or secrets are
   * dropped from them. `detail` is an optional note that is neither (e.g. a proctor's reason).
   */
  async record(
    actor: StaffActor | null,
    action: AuditAction,
    object: AuditObject,
    before: object | null,
    after: object | null,
    detail = '',
  ): Promise<void> {
    await this.repo.record({
      actor_kind: actor ? 'staff' : 'system',
      actor_id: actor?.id ?? null,
      actor_name: actor?.name ?? '',
      action,
      target: `${object.kind}:${object.id ?? ''}`,
      detail,
      object_kind: object.kind,
      object_id: object.id,
      before: before === null ? null : JSON.stringify(scrub(before)),
      after: after === null ? null : JSON.stringify(scrub(after)),
      created_at: this.clock(),
    });
  }

  /** GET /admin/audit: entries matching the filters, one page. */
  async list(actor: StaffActor, q: AuditListInput): Promise<AuditListData> {
    authorize(actor, api.auditList);
    const { rows, total } = await this.repo.list({
      actorId: q.actor_id,
      action: q.action,
      objectKind: q.object_kind,
      objectId: q.object_id,
      from: q.from,
      to: q.to,
      sort: q.sort,
      order: q.order,
      offset: (q.page - 1) * q.page_size,
      limit: q.page_size,
    });
    return { list: rows.map(toEntry), total };
  }
}
