import type { api, CandidateSlotsData, ChooseSlotData, ParsedBody } from '@examhall/contract';
import type { Db } from '../db/database.js';
import { fail } from '../errors.js';
import { AttemptRepository } from '../repositories/attempts.js';
import type { Candidate } from '../repositories/candidates.js';
import { ExamRepository, type ExamRow, type InvitationRow, type Span } from '../repositories/exams.js';
import { ScheduleRepository } from '../repositories/schedule.js';
import type { AttemptService } from './attempts.js';
import type { AuditService } from './audit.js';
import { lockedSlot, seat, slotRef } from './schedule.js';

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

/** What the candidate's slot choice needs. */
export interface SlotChoiceDeps {
  audit: AuditService;
  /** The candidate's invitation and what it opens. */
  attempts: Pick<AttemptService, 'invitationByExam' | 'bundleForInvitation'>;
  clock: () => number;
}

/**
 * The candidate's slot: the exam's slots with seats left (never who holds them), and choosing or changing theirs
 * while the exam lets them (slotChoiceLock). A seat is taken under the slot's lock (schedule.ts).
 */
export class SlotChoiceService {
  private readonly repo: ScheduleRepository;
  private readonly exams: ExamRepository;

  constructor(
    private readonly db: Db,
    private readonly deps: SlotChoiceDeps,
  ) {
    this.repo = new ScheduleRepository(db);
    this.exams = new ExamRepository(db);
  }

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
  async chooseSlot(c: Candidate, body: ParsedBody<typeof api.candidateChooseSlot>): Promise<ChooseSlotData> {
    const { inv, exam } = await this.invited(c, body.exam_id);
    if (inv.slot_id === body.slot_id) {
      const held = await this.repo.slot(body.slot_id);
      if (held) return { slot: slotRef(held) };
    }
    const slot = await this.db.transaction().execute(async (trx) => {
      // Read again inside the transaction: the rule holds against what is stored when the seat is taken.
      const fresh = (await new ExamRepository(trx).invitation(inv.id))!;
      const lock = await this.choiceLock(c, exam, fresh, trx);
      if (lock) throw fail('slot_locked', lock);
      const target = await lockedSlot(new ScheduleRepository(trx), exam.id, body.slot_id);
      if (this.deps.clock() >= target.start_at) throw fail('slot_locked', 'that slot has opened');
      if (fresh.slot_id === target.id) return target;
      await seat(trx, exam.id, [inv.id], target.id);
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
