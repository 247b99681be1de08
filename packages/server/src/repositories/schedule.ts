import { PostgresAdapter, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Db } from '../db/database.js';
import type { ExamSlotTable, InvitationTable } from '../db/schema.js';

/** A slot row. */
export type SlotRow = Selectable<ExamSlotTable>;

/** A slot with the number of invitations in it. */
export type SlotWithTaken = SlotRow & { taken: number };

/** What the console's invitation list filters and sorts by. */
export interface InvitationFilter {
  examId: number;
  /** Digits the phone contains. */
  phone?: string | undefined;
  /** A slot id; 0: in no slot. */
  slotId?: number | undefined;
  sort: 'id' | 'phone' | 'slot';
  order: 'asc' | 'desc';
  offset: number;
  limit: number;
}

/** The latest attempt of an invitation, as the console lists it. */
export interface LatestAttempt {
  id: number;
  invitation_id: number;
  phase: number;
  end_at: number | null;
  finish_reason: string | null;
}

const numeric = (r: SlotRow): SlotRow => ({
  ...r,
  start_at: Number(r.start_at),
  end_at: Number(r.end_at),
  created_at: Number(r.created_at),
});

/** Time slots, the invitations' slot and accommodations. */
export class ScheduleRepository {
  constructor(private readonly db: Db) {}

  /** The slots of an exam by start time, with the seats taken. */
  async slotsOf(examId: number): Promise<SlotWithTaken[]> {
    const rows = await this.db
      .selectFrom('exam_slots as s')
      .selectAll('s')
      .select((eb) =>
        eb
          .selectFrom('invitations as i')
          .whereRef('i.slot_id', '=', 's.id')
          .select((e) => e.fn.countAll<number>().as('n'))
          .as('taken'),
      )
      .where('s.exam_id', '=', examId)
      .orderBy('s.start_at')
      .orderBy('s.id')
      .execute();
    return rows.map(({ taken, ...r }) => ({ ...numeric(r), taken: Number(taken ?? 0) }));
  }

  /** A slot by id. */
  async slot(id: number): Promise<SlotRow | undefined> {
    const row = await this.db.selectFrom('exam_slots').selectAll().where('id', '=', id).executeTakeFirst();
    return row && numeric(row);
  }

  /**
   * A slot by id, locked until the transaction `db` ends on PostgreSQL, so seat counts taken after it are not
   * raced by another seat taken at once (SQLite's one writer serializes transactions anyway).
   */
  async lockSlot(id: number): Promise<SlotRow | undefined> {
    let q = this.db.selectFrom('exam_slots').selectAll().where('id', '=', id);
    if (this.db.getExecutor().adapter instanceof PostgresAdapter) q = q.forUpdate();
    const row = await q.executeTakeFirst();
    return row && numeric(row);
  }

  /** Invitations in a slot, leaving out `except`. */
  async taken(slotId: number, except: readonly number[] = []): Promise<number> {
    let q = this.db
      .selectFrom('invitations')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('slot_id', '=', slotId);
    if (except.length > 0) q = q.where('id', 'not in', [...except]);
    return Number((await q.executeTakeFirstOrThrow()).n);
  }

  /** Adds a slot. */
  async createSlot(row: Insertable<ExamSlotTable>): Promise<SlotRow> {
    return numeric(await this.db.insertInto('exam_slots').values(row).returningAll().executeTakeFirstOrThrow());
  }

  /** Changes a slot. */
  async updateSlot(id: number, set: Updateable<ExamSlotTable>): Promise<void> {
    await this.db.updateTable('exam_slots').set(set).where('id', '=', id).execute();
  }

  /** Removes a slot. */
  async deleteSlot(id: number): Promise<void> {
    await this.db.deleteFrom('exam_slots').where('id', '=', id).execute();
  }

  /** Sets who puts candidates into slots. */
  async setSlotMode(examId: number, mode: string): Promise<void> {
    await this.db.updateTable('exams').set({ slot_mode: mode }).where('id', '=', examId).execute();
  }

  /** Invitations of an exam by id (previews excluded); missing ones are absent. */
  invitations(examId: number, ids: readonly number[]): Promise<Selectable<InvitationTable>[]> {
    return this.db
      .selectFrom('invitations')
      .selectAll()
      .where('exam_id', '=', examId)
      .where('preview', '=', 0)
      .where('id', 'in', [...ids])
      .orderBy('id')
      .execute();
  }

  /** Changes invitations. */
  async updateInvitations(ids: readonly number[], set: Updateable<InvitationTable>): Promise<void> {
    await this.db
      .updateTable('invitations')
      .set(set)
      .where('id', 'in', [...ids])
      .execute();
  }

  /** One page of an exam's invitations (previews excluded) and how many match. */
  async listInvitations(f: InvitationFilter): Promise<{ rows: Selectable<InvitationTable>[]; total: number }> {
    let q = this.db.selectFrom('invitations').where('exam_id', '=', f.examId).where('preview', '=', 0);
    if (f.phone) q = q.where('phone', 'like', `%${f.phone}%`);
    if (f.slotId !== undefined) q = f.slotId === 0 ? q.where('slot_id', 'is', null) : q.where('slot_id', '=', f.slotId);
    const sortColumn = f.sort === 'phone' ? 'phone' : f.sort === 'slot' ? 'slot_id' : 'id';
    const [rows, count] = await Promise.all([
      q.selectAll().orderBy(sortColumn, f.order).orderBy('id', f.order).offset(f.offset).limit(f.limit).execute(),
      q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.n) };
  }

  /** The latest attempt of each of these invitations. */
  async latestAttempts(invitationIds: readonly number[]): Promise<Map<number, LatestAttempt>> {
    if (invitationIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('attempts')
      .select(['id', 'invitation_id', 'phase', 'end_at', 'finish_reason'])
      .where('invitation_id', 'in', [...invitationIds])
      .orderBy('id')
      .execute();
    const latest = new Map<number, LatestAttempt>();
    for (const r of rows) latest.set(r.invitation_id, { ...r, end_at: r.end_at === null ? null : Number(r.end_at) });
    return latest;
  }
}
