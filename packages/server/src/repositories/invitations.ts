import type { SmsLimit, SmsState } from '@examhall/contract';
import { sql, type Insertable, type Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { ExamSmsTable, InvitationTable, SmsMessageTable } from '../db/schema.js';

/** A text as stored. */
export type SmsRow = Selectable<SmsMessageTable>;
/** An exam's texts as stored. */
export type ExamSmsRow = Selectable<ExamSmsTable>;

/** An invitation with what its texts need: the candidate's name when known, and what gives their window. */
export interface InvitationContact {
  id: number;
  exam_id: number;
  area_code: string;
  phone: string;
  name: string | null;
  revoked_at: number | null;
  /** The personal window, if any. */
  window_start: number | null;
  window_end: number | null;
  /** The slot's window, if the invitation has a slot. */
  slot_start: number | null;
  slot_end: number | null;
}

/** Rows of one statement: SQLite allows 999 bound values a statement, and a text row binds about a dozen. */
const INSERT_CHUNK = 60;
/** Ids of one statement (within SQLite's 999 bound values). */
const HOLD_CHUNK = 900;

/** A text just queued, as its budgets see it. */
export type QueuedText = Pick<SmsRow, 'id' | 'invitation_id' | 'area_code' | 'phone' | 'purpose'>;

/** Invitations made (one by one or in bulk), revoked, and the texts sent to them. */
export class InvitationRepository {
  constructor(private readonly db: Db) {}

  /** The invitations of these phones to an exam, with the candidate's name when the directory has one. */
  async contactsByPhone(examId: number, phones: readonly { area_code: string; phone: string }[]) {
    if (phones.length === 0) return [];
    const numbers = [...new Set(phones.map((p) => p.phone))];
    const rows = await this.contactQuery().where('i.exam_id', '=', examId).where('i.phone', 'in', numbers).execute();
    const wanted = new Set(phones.map((p) => `${p.area_code} ${p.phone}`));
    return rows.filter((r) => wanted.has(`${r.area_code} ${r.phone}`));
  }

  /** Invitations of an exam by id (only the exam's own). */
  contactsById(examId: number, anids: readonly number[]): Promise<InvitationContact[]> {
    if (anids.length === 0) return Promise.resolve([]);
    return this.contactQuery().where('i.exam_id', '=', examId).where('i.id', 'in', anids).execute();
  }

  private contactQuery() {
    return this.db
      .selectFrom('invitations as i')
      .leftJoin('candidates as c', (j) => j.onRef('c.area_code', '=', 'i.area_code').onRef('c.phone', '=', 'i.phone'))
      .leftJoin('exam_slots as s', 's.id', 'i.slot_id')
      .select([
        'i.id',
        'i.exam_id',
        'i.area_code',
        'i.phone',
        'c.name',
        'i.revoked_at',
        'i.window_start',
        'i.window_end',
        's.start_at as slot_start',
        's.end_at as slot_end',
      ])
      .where('i.preview', '=', 0);
  }

  /** Phones of the directory's candidates by id. */
  candidatePhones(ids: readonly number[]) {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('candidates').select(['id', 'area_code', 'phone']).where('id', 'in', ids).execute();
  }

  /** Creates an invitation; returns its id. */
  async create(row: Insertable<InvitationTable>): Promise<number> {
    const r = await this.db.insertInto('invitations').values(row).returning('id').executeTakeFirstOrThrow();
    return r.id;
  }

  /** Points a preview invitation at a new preview version. */
  async setVersion(id: number, versionId: number): Promise<void> {
    await this.db.updateTable('invitations').set({ version_id: versionId }).where('id', '=', id).execute();
  }

  /** Deletes the preview attempts of an invitation (they count nowhere; a new preview starts afresh). */
  async deletePreviewAttempts(invitationId: number): Promise<void> {
    await this.db.deleteFrom('attempts').where('invitation_id', '=', invitationId).where('preview', '=', 1).execute();
  }

  /** Invites phones to an exam; a phone invited already keeps its invitation (a revoked one stays revoked). */
  async inviteMissing(
    examId: number,
    phones: readonly { area_code: string; phone: string }[],
    now: number,
  ): Promise<{ created: number; existing: number }> {
    const have = new Set((await this.contactsByPhone(examId, phones)).map((r) => `${r.area_code} ${r.phone}`));
    const fresh = [
      ...new Map(
        phones.filter((p) => !have.has(`${p.area_code} ${p.phone}`)).map((p) => [`${p.area_code} ${p.phone}`, p]),
      ).values(),
    ];
    for (let i = 0; i < fresh.length; i += INSERT_CHUNK) {
      await this.db
        .insertInto('invitations')
        .values(
          fresh.slice(i, i + INSERT_CHUNK).map((p) => ({
            exam_id: examId,
            area_code: p.area_code,
            phone: p.phone,
            extra_minutes: 0,
            created_at: now,
          })),
        )
        .onConflict((oc) => oc.columns(['exam_id', 'area_code', 'phone']).doNothing())
        .execute();
    }
    return { created: fresh.length, existing: phones.length - fresh.length };
  }

  /** Revokes invitations of an exam that are neither revoked nor started; answers those revoked. */
  async revoke(examId: number, anids: readonly number[], reason: string, now: number): Promise<number[]> {
    const rows = await this.db
      .updateTable('invitations')
      .set({ revoked_at: now, revoke_reason: reason })
      .where('exam_id', '=', examId)
      .where('id', 'in', anids)
      .where('preview', '=', 0)
      .where('revoked_at', 'is', null)
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('attempts as a').select('a.id').whereRef('a.invitation_id', '=', 'invitations.id'))),
      )
      .returning('id')
      .execute();
    return rows.map((r) => r.id);
  }

  // ---- texts ----

  /**
   * Queues texts; one already queued for the same invitation and key is left as it is. Answers the new ones, in
   * the order they were stored.
   */
  async queue(rows: readonly Insertable<SmsMessageTable>[]): Promise<QueuedText[]> {
    const added: QueuedText[] = [];
    for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
      added.push(
        ...(await this.db
          .insertInto('sms_messages')
          .values(rows.slice(i, i + INSERT_CHUNK))
          .onConflict((oc) => oc.columns(['invitation_id', 'dedupe_key']).doNothing())
          .returning(['id', 'invitation_id', 'area_code', 'phone', 'purpose'])
          .execute()),
      );
    }
    return added.sort((a, b) => a.id - b.id);
  }

  /** Keeps texts just queued from going out: state 'held', with the budget that held them back. */
  async hold(ids: readonly number[], limit: SmsLimit): Promise<void> {
    for (let i = 0; i < ids.length; i += HOLD_CHUNK)
      await this.db
        .updateTable('sms_messages')
        .set({ state: 'held', held_by: limit, lease_until: null })
        .where('id', 'in', ids.slice(i, i + HOLD_CHUNK))
        .where('state', '=', 'queued')
        .execute();
  }

  /** How many texts an invitation has had with this purpose. */
  async countTexts(invitationId: number, purpose: string): Promise<number> {
    const r = await this.db
      .selectFrom('sms_messages')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('invitation_id', '=', invitationId)
      .where('purpose', '=', purpose)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /** Cancels the texts of these invitations still waiting to go out. */
  async cancelQueued(anids: readonly number[]): Promise<void> {
    if (anids.length === 0) return;
    await this.db
      .updateTable('sms_messages')
      .set({ state: 'cancelled', lease_until: null })
      .where('invitation_id', 'in', anids)
      .where('state', '=', 'queued')
      .execute();
  }

  /**
   * Takes up to `limit` texts due at `now` (queued and due, or left 'sending' by a sender whose lease ran out)
   * for the sender, holding them until `leaseUntil`. Oldest first.
   */
  async claimDue(now: number, limit: number, leaseUntil: number): Promise<SmsRow[]> {
    const due = await this.db
      .selectFrom('sms_messages')
      .select('id')
      .where((eb) =>
        eb.or([
          eb.and([eb('state', '=', 'queued'), eb('next_try_at', '<=', now)]),
          eb.and([eb('state', '=', 'sending'), eb('lease_until', '<', now)]),
        ]),
      )
      .orderBy('next_try_at')
      .orderBy('id')
      .limit(limit)
      .execute();
    if (due.length === 0) return [];
    return this.db
      .updateTable('sms_messages')
      .set({ state: 'sending', lease_until: leaseUntil })
      .where(
        'id',
        'in',
        due.map((d) => d.id),
      )
      .where((eb) =>
        eb.or([eb('state', '=', 'queued'), eb.and([eb('state', '=', 'sending'), eb('lease_until', '<', now)])]),
      )
      .returningAll()
      .execute();
  }

  /** Records a delivery. */
  async markSent(id: number, now: number): Promise<void> {
    await this.db
      .updateTable('sms_messages')
      .set((eb) => ({ state: 'sent', sent_at: now, lease_until: null, last_error: null, tries: eb('tries', '+', 1) }))
      .where('id', '=', id)
      .execute();
  }

  /** Records a refusal: tried again at `retryAt`, or failed for good when that is null. */
  async markRefused(id: number, error: string, retryAt: number | null): Promise<void> {
    await this.db
      .updateTable('sms_messages')
      .set((eb) => ({
        state: retryAt === null ? 'failed' : 'queued',
        next_try_at: retryAt ?? eb.ref('next_try_at'),
        last_error: error.slice(0, 500),
        lease_until: null,
        tries: eb('tries', '+', 1),
      }))
      .where('id', '=', id)
      .execute();
  }

  /** One page of an exam's texts, newest first, and how many match. */
  async list(q: { exam_id: number; page: number; page_size: number; state?: SmsState; phone?: string }) {
    let base = this.db.selectFrom('sms_messages').where('exam_id', '=', q.exam_id);
    if (q.state) base = base.where('state', '=', q.state);
    if (q.phone) base = base.where('phone', 'like', `%${q.phone.replace(/[%_\\]/g, '')}%`);
    const [rows, total] = await Promise.all([
      base
        .selectAll()
        .orderBy('id', 'desc')
        .offset((q.page - 1) * q.page_size)
        .limit(q.page_size)
        .execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(total.n) };
  }

  /** How many of an exam's texts are in each state. */
  async countsByState(examId: number): Promise<Map<string, number>> {
    const rows = await this.db
      .selectFrom('sms_messages')
      .select(['state', (eb) => eb.fn.countAll<number>().as('n')])
      .where('exam_id', '=', examId)
      .groupBy('state')
      .execute();
    return new Map(rows.map((r) => [r.state, Number(r.n)]));
  }

  // ---- each exam's texts ----

  /** An exam's saved texts, if its staff saved any. */
  smsSettings(examId: number): Promise<ExamSmsRow | undefined> {
    return this.db.selectFrom('exam_sms').selectAll().where('exam_id', '=', examId).executeTakeFirst();
  }

  /** Saves an exam's texts. */
  async saveSmsSettings(row: Insertable<ExamSmsTable>): Promise<void> {
    await this.db
      .insertInto('exam_sms')
      .values(row)
      .onConflict((oc) =>
        oc.column('exam_id').doUpdateSet({
          invitation_template: row.invitation_template,
          reminder_template: row.reminder_template,
          reminder_minutes: row.reminder_minutes,
          updated_at: row.updated_at,
          updated_by: row.updated_by ?? null,
        }),
      )
      .execute();
  }

  /** Published exams that have not closed at `now`, with their saved texts. */
  openExams(now: number) {
    return this.db
      .selectFrom('exams as e')
      .select(['e.id', 'e.name', 'e.start_at', 'e.end_at', 'e.team_id'])
      .where('e.published_version_id', 'is not', null)
      .where('e.status', '=', 'published')
      .where('e.end_at', '>', now)
      .execute();
  }

  /**
   * Up to `limit` standing invitations of an exam (after invitation id `afterId`) whose reminder `minutes`
   * before their own window opens is due at `now` and was not yet queued: their window opens after `now` and
   * `minutes` before it is past; a later reminder (`laterMinutes`, fewer minutes before) is not yet due, so
   * only the latest reminder due goes out; the invitation was made before the reminder's moment (a fresh one
   * just got its invitation); and nobody started. The own window's start is the personal window's, else the
   * slot's, else the exam's, as services/timing.ts has it.
   */
  dueForReminder(
    exam: { id: number; start_at: number },
    r: { dedupeKey: string; minutes: number; laterMinutes: number | null },
    now: number,
    afterId: number,
    limit: number,
  ): Promise<InvitationContact[]> {
    const ownStart = sql<number>`coalesce(i.window_start, s.start_at, ${exam.start_at})`;
    const before = r.minutes * 60_000;
    return this.contactQuery()
      .where('i.exam_id', '=', exam.id)
      .where('i.revoked_at', 'is', null)
      .where('i.id', '>', afterId)
      .where(ownStart, '>', now)
      .where(sql<number>`${ownStart} - ${before}`, '<=', now)
      .where(sql<number>`i.created_at + ${before}`, '<=', ownStart)
      .$if(r.laterMinutes !== null, (q) =>
        q.where(sql<number>`${ownStart} - ${(r.laterMinutes ?? 0) * 60_000}`, '>', now),
      )
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('sms_messages as m')
              .select('m.id')
              .whereRef('m.invitation_id', '=', 'i.id')
              .where('m.dedupe_key', '=', r.dedupeKey),
          ),
        ),
      )
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('attempts as a').select('a.id').whereRef('a.invitation_id', '=', 'i.id'))),
      )
      .orderBy('i.id')
      .limit(limit)
      .execute();
  }
}
