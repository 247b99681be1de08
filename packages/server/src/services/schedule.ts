import {
  api,
  ExamPhase,
  formatServerTime,
  type BulkChangeData,
  type CallDef,
  type CandidateSlotsData,
  type ChooseSlotData,
  type InvitationListData,
  type ReopenData,
  type SlotListData,
  type SlotRef,
  type SlotView,
} from '@examhall/contract';
import type { z } from 'zod';
import type { Db } from '../db/database.js';
import { fail } from '../errors.js';
import type { ProctorNotifier } from '../proctoring/notifier.js';
import { AttemptRepository } from '../repositories/attempts.js';
import type { Candidate } from '../repositories/candidates.js';
import { ExamEditorRepository } from '../repositories/examEditor.js';
import { ExamRepository, type ExamRow, type InvitationRow, type Span } from '../repositories/exams.js';
import { GradingRepository } from '../repositories/grading.js';
import { ScheduleRepository, type SlotRow } from '../repositories/schedule.js';
import type { AccessService, StaffActor } from './access.js';
import type { AttemptService } from './attempts.js';
import type { AuditService } from './audit.js';
import { attemptEnd, effectiveWindow, extraMinutesOf } from './timing.js';

type Out<T extends CallDef, F extends 'query' | 'body'> = T[F] extends z.ZodType ? z.output<T[F]> : never;

/** A slot as candidates see it. */
const slotRef = (s: SlotRow): SlotRef => ({ id: s.id, label: s.label, start_at: s.start_at, end_at: s.end_at });

/** The accommodation fields of an invitation, as the audit log records them. */
const accommodationOf = (i: InvitationRow) => ({
  id: i.id,
  slot_id: i.slot_id,
  extra_mode: i.extra_mode,
  extra_minutes: i.extra_minutes,
  extra_percent: i.extra_percent,
  window_start: i.window_start,
  window_end: i.window_end,
});

/** What the slot-choice rule reads. */
export interface SlotChoiceState {
  slotMode: string;
  inv: Pick<InvitationRow, 'preview' | 'window_start' | 'window_end'>;
  /** The candidate's slot now, if any. */
  slot: Span | null;
  /** True once the candidate has an attempt at the exam. */
  started: boolean;
  now: number;
}

/**
 * Why the candidate may not choose or change their slot now, or null when they may: only where the exam lets
 * candidates choose, never with a personal window (it overrides any slot) or once they have started, and only
 * before their current slot opens.
 */
export function slotChoiceLock(s: SlotChoiceState): string | null {
  if (s.slotMode !== 'chosen') return "this exam's slots are assigned by the organiser";
  if (s.inv.preview === 1) return 'a preview has no slot';
  if (s.inv.window_start !== null) return 'you have a personal window';
  if (s.started) return 'you have started the exam';
  if (s.slot && s.now >= s.slot.start_at) return 'your slot has opened';
  return null;
}

/**
 * Schedules and accommodations: an exam's time slots and who fills them, each invitation's slot, extra time
 * and personal window, and reopening a finished attempt. Seats are taken under a lock on the slot, so two
 * candidates racing for its last seat cannot both get it. Every staff change checks access by exam (or
 * attempt) and writes the audit log in its transaction.
 */
export class ScheduleService {
  private readonly repo: ScheduleRepository;
  private readonly exams: ExamRepository;

  constructor(
    private readonly db: Db,
    private readonly deps: {
      access: AccessService;
      audit: AuditService;
      attempts: AttemptService;
      notifier: ProctorNotifier;
      clock: () => number;
    },
  ) {
    this.repo = new ScheduleRepository(db);
    this.exams = new ExamRepository(db);
  }

  /** The exam after the access check of `call` (404 for one out of reach). */
  private async exam(actor: StaffActor, call: CallDef, examId: number): Promise<ExamRow> {
    await this.deps.access.requireFor(actor, call, examId);
    const exam = await this.exams.byId(examId);
    if (!exam) throw fail('not_found', `no such exam ${examId}`);
    return exam;
  }

  /** A slot of the exam, or not found. */
  private async slotOf(examId: number, slotId: number, repo = this.repo): Promise<SlotRow> {
    const slot = await repo.lockSlot(slotId);
    if (!slot || slot.exam_id !== examId) throw fail('not_found', `no such slot ${slotId} of this exam`);
    return slot;
  }

  /** Slot times must lie inside the exam's window. */
  private static checkInside(exam: ExamRow, s: Span): void {
    if (s.end_at <= s.start_at) throw fail('validation_error', 'end_at: the slot closes before it opens');
    if (s.start_at < exam.start_at || s.end_at > exam.end_at) {
      throw fail(
        'validation_error',
        `start_at: a slot lies inside the exam's window, ${formatServerTime(exam.start_at)} to ${formatServerTime(exam.end_at)} (UTC+8)`,
      );
    }
  }

  // ---- staff: slots ----

  /** GET /admin/exam/slots. */
  async slots(actor: StaffActor, examId: number): Promise<SlotListData> {
    const exam = await this.exam(actor, api.scheduleSlots, examId);
    const list = await this.repo.slotsOf(exam.id);
    return {
      slot_mode: exam.slot_mode === 'chosen' ? 'chosen' : 'assigned',
      start_at: exam.start_at,
      end_at: exam.end_at,
      list: list.map((s) => ({ ...slotRef(s), capacity: s.capacity, taken: s.taken })),
    };
  }

  /** POST /admin/exam/slot/create. */
  async createSlot(actor: StaffActor, body: Out<typeof api.scheduleSlotCreate, 'body'>): Promise<SlotView> {
    const exam = await this.exam(actor, api.scheduleSlotCreate, body.exam_id);
    ScheduleService.checkInside(exam, body);
    return this.db.transaction().execute(async (trx) => {
      const slot = await new ScheduleRepository(trx).createSlot({
        exam_id: exam.id,
        label: body.label,
        start_at: body.start_at,
        end_at: body.end_at,
        capacity: body.capacity,
        created_at: this.deps.clock(),
      });
      const view = { ...slotRef(slot), capacity: slot.capacity, taken: 0 };
      await this.deps.audit.with(trx).record(actor, 'exam.slot.create', { kind: 'exam', id: exam.id }, null, view);
      return view;
    });
  }

  /** POST /admin/exam/slot/update: never fewer seats than are taken. */
  async updateSlot(actor: StaffActor, body: Out<typeof api.scheduleSlotUpdate, 'body'>): Promise<SlotView> {
    const exam = await this.exam(actor, api.scheduleSlotUpdate, body.exam_id);
    ScheduleService.checkInside(exam, body);
    const view = await this.db.transaction().execute(async (trx) => {
      const repo = new ScheduleRepository(trx);
      const slot = await this.slotOf(exam.id, body.slot_id, repo);
      const taken = await repo.taken(slot.id);
      if (body.capacity < taken) {
        throw fail('conflict', `capacity: ${taken} candidates sit in this slot; move some out first`);
      }
      await repo.updateSlot(slot.id, {
        label: body.label,
        start_at: body.start_at,
        end_at: body.end_at,
        capacity: body.capacity,
      });
      const before = { ...slotRef(slot), capacity: slot.capacity, taken };
      const after = { id: slot.id, label: body.label, start_at: body.start_at, end_at: body.end_at };
      const next = { ...after, capacity: body.capacity, taken };
      await this.deps.audit.with(trx).record(actor, 'exam.slot.update', { kind: 'exam', id: exam.id }, before, next);
      return next;
    });
    // Running attempts in the slot keep to its new end.
    await this.moveEnds(exam, undefined);
    return view;
  }

  /** POST /admin/exam/slot/delete: only a slot nobody sits in. */
  async deleteSlot(
    actor: StaffActor,
    body: Out<typeof api.scheduleSlotDelete, 'body'>,
  ): Promise<Record<string, never>> {
    const exam = await this.exam(actor, api.scheduleSlotDelete, body.exam_id);
    await this.db.transaction().execute(async (trx) => {
      const repo = new ScheduleRepository(trx);
      const slot = await this.slotOf(exam.id, body.slot_id, repo);
      const taken = await repo.taken(slot.id);
      if (taken > 0) throw fail('conflict', `${taken} candidates sit in this slot; move them out first`);
      await repo.deleteSlot(slot.id);
      await this.deps.audit
        .with(trx)
        .record(
          actor,
          'exam.slot.delete',
          { kind: 'exam', id: exam.id },
          { ...slotRef(slot), capacity: slot.capacity },
          null,
        );
    });
    return {};
  }

  /** POST /admin/exam/slot-mode. */
  async setSlotMode(actor: StaffActor, body: Out<typeof api.scheduleSlotMode, 'body'>): Promise<Record<string, never>> {
    const exam = await this.exam(actor, api.scheduleSlotMode, body.exam_id);
    await this.db.transaction().execute(async (trx) => {
      await new ScheduleRepository(trx).setSlotMode(exam.id, body.slot_mode);
      await this.deps.audit
        .with(trx)
        .record(
          actor,
          'exam.slot_mode',
          { kind: 'exam', id: exam.id },
          { slot_mode: exam.slot_mode },
          { slot_mode: body.slot_mode },
        );
    });
    return {};
  }

  // ---- staff: invitations ----

  /** GET /admin/exam/invitations: one page with each invitation's accommodations and latest attempt. */
  async invitations(actor: StaffActor, q: Out<typeof api.scheduleInvitations, 'query'>): Promise<InvitationListData> {
    const exam = await this.exam(actor, api.scheduleInvitations, q.exam_id);
    const { rows, total } = await this.repo.listInvitations({
      examId: exam.id,
      phone: q.phone || undefined,
      slotId: q.slot === 'none' ? 0 : q.slot,
      sort: q.sort,
      order: q.order,
      offset: (q.page - 1) * q.page_size,
      limit: q.page_size,
    });
    const slots = new Map((await this.repo.slotsOf(exam.id)).map((s) => [s.id, s]));
    const attempts = await this.repo.latestAttempts(rows.map((r) => r.id));
    return {
      total,
      list: rows.map((i) => {
        const window = effectiveWindow(exam, i, i.slot_id !== null ? (slots.get(i.slot_id) ?? null) : null);
        const a = attempts.get(i.id);
        return {
          id: i.id,
          area_code: i.area_code,
          phone: i.phone,
          slot_id: i.slot_id,
          extra_mode: i.extra_mode === 'percent' ? 'percent' : 'minutes',
          extra_value: i.extra_mode === 'percent' ? i.extra_percent : i.extra_minutes,
          extra_minutes: extraMinutesOf(i, exam.time_minutes),
          window_start: i.window_start,
          window_end: i.window_end,
          effective_start: window.start_at,
          effective_end: window.end_at,
          revoked_at: i.revoked_at,
          attempt: a ? { id: a.id, phase: a.phase, end_at: a.end_at, finish_reason: a.finish_reason } : null,
        };
      }),
    };
  }

  /** The invitations of the exam named in a bulk change, each one of them, or not found. */
  private async bulkInvitations(repo: ScheduleRepository, examId: number, ids: readonly number[]) {
    const wanted = [...new Set(ids)];
    const rows = await repo.invitations(examId, wanted);
    const found = new Set(rows.map((r) => r.id));
    const missing = wanted.find((id) => !found.has(id));
    if (missing !== undefined) throw fail('not_found', `invitation_ids: no such invitation ${missing} of this exam`);
    return rows;
  }

  /**
   * Puts invitations into the slot or takes seats for them, under the slot's lock: `slot_full` when there are
   * fewer seats left than invitations that come in. Answers the invitations before the change.
   */
  private async seat(trx: Db, examId: number, ids: readonly number[], slotId: number | null) {
    const repo = new ScheduleRepository(trx);
    if (slotId !== null) {
      const slot = await this.slotOf(examId, slotId, repo);
      const rows = await this.bulkInvitations(repo, examId, ids);
      const incoming = rows.filter((r) => r.slot_id !== slot.id).map((r) => r.id);
      const taken = await repo.taken(slot.id);
      if (taken + incoming.length > slot.capacity) {
        throw fail('slot_full', `${Math.max(0, slot.capacity - taken)} of ${slot.capacity} seats left`);
      }
      await repo.updateInvitations(incoming, { slot_id: slot.id });
      return { rows, slot };
    }
    const rows = await this.bulkInvitations(repo, examId, ids);
    await repo.updateInvitations(
      rows.map((r) => r.id),
      { slot_id: null },
    );
    return { rows, slot: null };
  }

  /** POST /admin/exam/invitations/slot. */
  async assignSlot(actor: StaffActor, body: Out<typeof api.scheduleAssignSlot, 'body'>): Promise<BulkChangeData> {
    const exam = await this.exam(actor, api.scheduleAssignSlot, body.exam_id);
    const changed = await this.db.transaction().execute(async (trx) => {
      const { rows } = await this.seat(trx, exam.id, body.invitation_ids, body.slot_id);
      const moved = rows.filter((r) => r.slot_id !== body.slot_id);
      // One entry for the whole change, on the exam, naming each invitation that moved.
      await this.deps.audit
        .with(trx)
        .record(
          actor,
          'exam.invitations.slot',
          { kind: 'exam', id: exam.id },
          { invitations: moved.map((r) => ({ id: r.id, slot_id: r.slot_id })) },
          { invitations: moved.map((r) => ({ id: r.id, slot_id: body.slot_id })) },
        );
      return moved.length;
    });
    return { changed, attempts_moved: await this.moveEnds(exam, body.invitation_ids) };
  }

  /** POST /admin/exam/invitations/accommodations: extra time and personal window; running attempts follow. */
  async accommodations(
    actor: StaffActor,
    body: Out<typeof api.scheduleAccommodations, 'body'>,
  ): Promise<BulkChangeData> {
    const exam = await this.exam(actor, api.scheduleAccommodations, body.exam_id);
    const changed = await this.db.transaction().execute(async (trx) => {
      const repo = new ScheduleRepository(trx);
      const rows = await this.bulkInvitations(repo, exam.id, body.invitation_ids);
      const set = {
        ...(body.extra
          ? body.extra.mode === 'minutes'
            ? { extra_mode: 'minutes', extra_minutes: body.extra.value, extra_percent: 0 }
            : { extra_mode: 'percent', extra_minutes: 0, extra_percent: body.extra.value }
          : {}),
        ...(body.window !== undefined
          ? { window_start: body.window?.start_at ?? null, window_end: body.window?.end_at ?? null }
          : {}),
      };
      await repo.updateInvitations(
        rows.map((r) => r.id),
        set,
      );
      await this.deps.audit
        .with(trx)
        .record(
          actor,
          'exam.invitations.accommodations',
          { kind: 'exam', id: exam.id },
          { invitations: rows.map(accommodationOf) },
          { invitations: rows.map((r) => accommodationOf({ ...r, ...set })) },
        );
      return rows.length;
    });
    return { changed, attempts_moved: await this.moveEnds(exam, body.invitation_ids) };
  }

  /** Moves the end of running attempts (of these invitations, or all) to what the rules say now. */
  private async moveEnds(exam: ExamRow, invitationIds: readonly number[] | undefined): Promise<number> {
    const moved = await new ExamEditorRepository(this.db).moveRunningEnds(
      exam.id,
      (startedAt, inv, slot) =>
        attemptEnd(exam.mode, exam.time_minutes, inv, effectiveWindow(exam, inv, slot), startedAt),
      invitationIds,
    );
    if (moved > 0) {
      for (const id of await new ExamEditorRepository(this.db).runningAttemptIds(exam.id))
        this.deps.notifier.announce({ type: 'attempt', attemptId: id });
    }
    return moved;
  }

  // ---- staff: reopening ----

  /**
   * POST /admin/attempt/reopen: a finished attempt goes back to the exam phase with its answers, ending
   * `minutes` from now, or (without minutes) after the time it still had when it finished. Only the
   * candidate's latest attempt, one that had entered the exam, and never a preview. The overdue sweeper
   * finishes it again once the new end passes.
   */
  async reopen(actor: StaffActor, body: Out<typeof api.scheduleReopen, 'body'>): Promise<ReopenData> {
    await this.deps.access.requireFor(actor, api.scheduleReopen, body.attempt_id);
    const attempts = new AttemptRepository(this.db);
    const a = await attempts.byId(body.attempt_id);
    if (!a) throw fail('not_found', `no such attempt ${body.attempt_id}`);
    if (a.phase !== ExamPhase.submit) throw fail('attempt_not_reopenable', 'the attempt has not finished');
    if (a.preview === 1) throw fail('attempt_not_reopenable', 'a preview attempt counts nowhere');
    if (a.started_at === null) throw fail('attempt_not_reopenable', 'the attempt never entered the exam');
    const latest = await attempts.latest(a.candidate_id, a.exam_id);
    if (latest?.id !== a.id) throw fail('attempt_not_reopenable', 'the candidate has a later attempt');
    const now = this.deps.clock();
    const left = a.end_at !== null && a.finished_at !== null ? Number(a.end_at) - Number(a.finished_at) : 0;
    if (body.minutes === undefined && left <= 0) {
      throw fail('validation_error', 'minutes: the attempt had no time left when it finished; say how many to give');
    }
    const endAt = now + (body.minutes !== undefined ? body.minutes * 60_000 : left);
    await this.db.transaction().execute(async (trx) => {
      const moved = await new AttemptRepository(trx).updateInPhase(a.id, ExamPhase.submit, {
        phase: ExamPhase.exam,
        end_at: endAt,
        finished_at: null,
        finish_reason: null,
        finish_note: '',
        score: null,
        max_score: null,
      });
      if (!moved) throw fail('conflict', 'the attempt changed meanwhile; try again');
      // Its score is gone until it finishes again, and the kept ranking key with it.
      await new GradingRepository(trx).keepTotals(a.id);
      await this.deps.audit.with(trx).record(
        actor,
        'attempt.reopen',
        { kind: 'attempt', id: a.id },
        {
          phase: a.phase,
          end_at: a.end_at,
          finished_at: a.finished_at,
          finish_reason: a.finish_reason,
          score: a.score,
        },
        { phase: ExamPhase.exam, end_at: endAt, minutes: body.minutes ?? null, reason: body.reason },
        body.reason,
      );
    });
    this.deps.notifier.announce({ type: 'attempt', attemptId: a.id });
    return { attempt_id: a.id, end_at: endAt };
  }

  // ---- the candidate ----

  /** The lock on the candidate's slot choice (see slotChoiceLock), from what is stored now. */
  private async choiceLock(c: Candidate, exam: ExamRow, inv: InvitationRow, db = this.db): Promise<string | null> {
    const slot = inv.slot_id !== null ? ((await new ScheduleRepository(db).slot(inv.slot_id)) ?? null) : null;
    const started = (await new AttemptRepository(db).latest(c.id, exam.id)) !== undefined;
    return slotChoiceLock({ slotMode: exam.slot_mode, inv, slot, started, now: this.deps.clock() });
  }

  /** The invitation and the exams row of an exam the candidate is invited to (published, or their preview). */
  private async invited(c: Candidate, examId: number): Promise<{ inv: InvitationRow; exam: ExamRow }> {
    const inv = await this.deps.attempts.invitationByExam(c, examId);
    await this.deps.attempts.bundleForInvitation(inv);
    const exam = await this.exams.byId(examId);
    if (!exam) throw fail('exam_detail_missing');
    return { inv, exam };
  }

  /** GET /exam/slots: the exam's slots with seats left (never who holds them), and the candidate's own. */
  async candidateSlots(c: Candidate, examId: number): Promise<CandidateSlotsData> {
    const { inv, exam } = await this.invited(c, examId);
    const slots = await this.repo.slotsOf(exam.id);
    return {
      can_choose: (await this.choiceLock(c, exam, inv)) === null,
      slot_id: inv.slot_id,
      list: slots.map((s) => ({ ...slotRef(s), seats_left: Math.max(0, s.capacity - s.taken) })),
    };
  }

  /** POST /exam/choose-slot: a slot that has not opened and has a seat, while the candidate may choose. */
  async chooseSlot(c: Candidate, body: Out<typeof api.candidateChooseSlot, 'body'>): Promise<ChooseSlotData> {
    const { inv, exam } = await this.invited(c, body.exam_id);
    if (inv.slot_id === body.slot_id) {
      const held = await this.repo.slot(body.slot_id);
      if (held) return { slot: slotRef(held) };
    }
    const slot = await this.db.transaction().execute(async (trx) => {
      const repo = new ScheduleRepository(trx);
      // Read again inside the transaction: the rule holds against what is stored when the seat is taken.
      const fresh = (await new ExamRepository(trx).invitation(inv.id))!;
      const lock = await this.choiceLock(c, exam, fresh, trx);
      if (lock) throw fail('slot_locked', lock);
      const target = await this.slotOf(exam.id, body.slot_id, repo);
      if (this.deps.clock() >= target.start_at) throw fail('slot_locked', 'that slot has opened');
      if (fresh.slot_id === target.id) return target;
      await this.seat(trx, exam.id, [inv.id], target.id);
      await this.deps.audit
        .with(trx)
        .record(
          null,
          'invitation.slot',
          { kind: 'invitation', id: inv.id },
          { slot_id: fresh.slot_id },
          { slot_id: target.id },
          'chosen by the candidate',
        );
      return target;
    });
    return { slot: slotRef(slot) };
  }
}
