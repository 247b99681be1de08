import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { AuditLogTable } from '../db/schema.js';

/** An audit log row. */
export type AuditRow = Selectable<AuditLogTable>;

/** Filters, order and page of an audit log query. */
export interface AuditListQuery {
  actorId?: number | undefined;
  /** Exact action, or a prefix when it ends with '.'. */
  action?: string | undefined;
  objectKind?: string | undefined;
  objectId?: number | undefined;
  /** Inclusive lower bound (epoch ms). */
  from?: number | undefined;
  /** Exclusive upper bound (epoch ms). */
  to?: number | undefined;
  sort: 'time' | 'actor' | 'action' | 'object';
  order: 'asc' | 'desc';
  offset: number;
  limit: number;
}

/** The column each sort orders by first; ties fall back to time and id, so pages never overlap. */
const SORT_COLUMNS = {
  time: 'created_at',
  actor: 'actor_name',
  action: 'action',
  object: 'object_kind',
} as const;

/** The audit log. */
export class AuditRepository {
  constructor(private readonly db: Db) {}

  /** Appends an entry. */
  async record(entry: Insertable<AuditLogTable>): Promise<void> {
    await this.db.insertInto('audit_log').values(entry).execute();
  }

  /** One page of entries matching the filters, and how many match in all. */
  async list(q: AuditListQuery): Promise<{ rows: AuditRow[]; total: number }> {
    let base = this.db.selectFrom('audit_log');
    if (q.actorId !== undefined) base = base.where('actor_id', '=', q.actorId);
    if (q.action !== undefined) {
      const action = q.action;
      base = action.endsWith('.')
        ? base.where((eb) => eb(eb.fn<string>('substr', ['action', eb.lit(1), eb.lit(action.length)]), '=', action))
        : base.where('action', '=', action);
    }
    if (q.objectKind !== undefined) base = base.where('object_kind', '=', q.objectKind);
    if (q.objectId !== undefined) base = base.where('object_id', '=', q.objectId);
    if (q.from !== undefined) base = base.where('created_at', '>=', q.from);
    if (q.to !== undefined) base = base.where('created_at', '<', q.to);
    const counted = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    let page = base.selectAll();
    if (q.sort === 'object') page = page.orderBy('object_kind', q.order).orderBy('object_id', q.order);
    else if (q.sort !== 'time') page = page.orderBy(SORT_COLUMNS[q.sort], q.order);
    const rows = await page
      .orderBy('created_at', q.order)
      .orderBy('id', q.order)
      .limit(q.limit)
      .offset(q.offset)
      .execute();
    return { rows, total: Number(counted.n) };
  }
}
