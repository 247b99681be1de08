import {
  api,
  formatServerTime,
  type CallDef,
  type ParsedBody,
  type SlotListData,
  type SlotView,
} from '@examhall/contract';
import type { Db } from '../db/database.js';
import { fail } from '../errors.js';
import type { ProctorNotifier } from '../proctoring/notifier.js';
import { ExamEditorRepository } from '../repositories/examEditor.js';
import type { ExamRow, Span } from '../repositories/exams.js';
import { ScheduleRepository } from '../repositories/schedule.js';
import type { AccessService, StaffActor } from './access.js';
import type { AuditService } from './audit.js';
import { examInReach } from './examVersions.js';
import { lockedSlot, moveRunningEnds, slotRef } from './schedule.js';

/** Slot times must lie inside the exam's window. */
function checkInside(exam: ExamRow, s: Span): void {
  if (s.end_at <= s.start_at) throw fail('validation_error', 'end_at: the slot closes before it opens');
  if (s.start_at < exam.start_at || s.end_at > exam.end_at) {
    throw fail(
      'validation_error',
      `start_at: a slot lies inside the exam's window, ${formatServerTime(exam.start_at)} to ${formatServerTime(exam.end_at)} (UTC+8)`,
    );
  }
}

/** What staff's slot calls need. */
export interface SlotDeps {
  access: AccessService;
  audit: AuditService;
  /** Hears running attempts whose end moved with their slot. */
  notifier: Pick<ProctorNotifier, 'announce'>;
  clock: () => number;
}

/**
 * An exam's time slots as staff keep them: list, create, change (never fewer seats than are taken; running
 * attempts in it keep to its new end), delete (only an empty one), and whether candidates choose their slot.
 * Every call checks access by exam and writes the audit log in its transaction.
 */
export class SlotService {
  private readonly exams: ExamEditorRepository;
  private readonly repo: ScheduleRepository;

  constructor(
    private readonly db: Db,
    private readonly deps: SlotDeps,
  ) {
    this.exams = new ExamEditorRepository(db);
    this.repo = new ScheduleRepository(db);
  }

  /** The exam after the access check of `call` (404 for one out of reach). */
  private exam(actor: StaffActor, call: CallDef, examId: number): Promise<ExamRow> {
    return examInReach(this.deps.access, this.exams, actor, call, examId);
  }

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
  async createSlot(actor: StaffActor, body: ParsedBody<typeof api.scheduleSlotCreate>): Promise<SlotView> {
    const exam = await this.exam(actor, api.scheduleSlotCreate, body.exam_id);
    checkInside(exam, body);
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
  async updateSlot(actor: StaffActor, body: ParsedBody<typeof api.scheduleSlotUpdate>): Promise<SlotView> {
    const exam = await this.exam(actor, api.scheduleSlotUpdate, body.exam_id);
    checkInside(exam, body);
    const view = await this.db.transaction().execute(async (trx) => {
      const repo = new ScheduleRepository(trx);
      const slot = await lockedSlot(repo, exam.id, body.slot_id);
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
    await moveRunningEnds(this.db, this.deps.notifier, exam, undefined);
    return view;
  }

  /** POST /admin/exam/slot/delete: only a slot nobody sits in. */
  async deleteSlot(actor: StaffActor, body: ParsedBody<typeof api.scheduleSlotDelete>): Promise<Record<string, never>> {
    const exam = await this.exam(actor, api.scheduleSlotDelete, body.exam_id);
    await this.db.transaction().execute(async (trx) => {
      const repo = new ScheduleRepository(trx);
      const slot = await lockedSlot(repo, exam.id, body.slot_id);
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
  async setSlotMode(actor: StaffActor, body: ParsedBody<typeof api.scheduleSlotMode>): Promise<Record<string, never>> {
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
}
