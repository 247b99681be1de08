import {
  api,
  type BulkChangeData,
  type CallDef,
  type InvitationListData,
  type ParsedBody,
  type ParsedQuery,
} from '@examhall/contract';
import type { Db } from '../db/database.js';
import type { ProctorNotifier } from '../proctoring/notifier.js';
import { ExamEditorRepository } from '../repositories/examEditor.js';
import type { ExamRow, InvitationRow } from '../repositories/exams.js';
import { ScheduleRepository } from '../repositories/schedule.js';
import type { AccessService, StaffActor } from './access.js';
import type { AuditService } from './audit.js';
import { examInReach } from './examVersions.js';
import { invitationsOf, moveRunningEnds, seat } from './schedule.js';
import { effectiveWindow, extraMinutesOf } from './timing.js';

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

/** What staff's accommodation calls need. */
export interface AccommodationDeps {
  access: AccessService;
  audit: AuditService;
  /** Hears running attempts whose end moved. */
  notifier: Pick<ProctorNotifier, 'announce'>;
}

/**
 * Each invitation's schedule as staff set it: the list with accommodations and latest attempt, the slot (seats
 * taken under the slot's lock), extra time and personal window; running attempts follow at once. Every change
 * checks access by exam and writes one audit entry in its transaction.
 */
export class AccommodationService {
  private readonly exams: ExamEditorRepository;
  private readonly repo: ScheduleRepository;

  constructor(
    private readonly db: Db,
    private readonly deps: AccommodationDeps,
  ) {
    this.exams = new ExamEditorRepository(db);
    this.repo = new ScheduleRepository(db);
  }

  /** The exam after the access check of `call` (404 for one out of reach). */
  private exam(actor: StaffActor, call: CallDef, examId: number): Promise<ExamRow> {
    return examInReach(this.deps.access, this.exams, actor, call, examId);
  }

  /** GET /admin/exam/invitations: one page with each invitation's accommodations and latest attempt. */
  async invitations(actor: StaffActor, q: ParsedQuery<typeof api.scheduleInvitations>): Promise<InvitationListData> {
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

  /** POST /admin/exam/invitations/slot. */
  async assignSlot(actor: StaffActor, body: ParsedBody<typeof api.scheduleAssignSlot>): Promise<BulkChangeData> {
    const exam = await this.exam(actor, api.scheduleAssignSlot, body.exam_id);
    const changed = await this.db.transaction().execute(async (trx) => {
      const { rows } = await seat(trx, exam.id, body.invitation_ids, body.slot_id);
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
    return { changed, attempts_moved: await moveRunningEnds(this.db, this.deps.notifier, exam, body.invitation_ids) };
  }

  /** POST /admin/exam/invitations/accommodations: extra time and personal window; running attempts follow. */
  async accommodations(
    actor: StaffActor,
    body: ParsedBody<typeof api.scheduleAccommodations>,
  ): Promise<BulkChangeData> {
    const exam = await this.exam(actor, api.scheduleAccommodations, body.exam_id);
    const changed = await this.db.transaction().execute(async (trx) => {
      const repo = new ScheduleRepository(trx);
      const rows = await invitationsOf(repo, exam.id, body.invitation_ids);
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
    return { changed, attempts_moved: await moveRunningEnds(this.db, this.deps.notifier, exam, body.invitation_ids) };
  }
}
