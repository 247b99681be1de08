import {
  devicesToPrepare,
  ExamPhase,
  type AnidInfoData,
  type ExamDetail,
  type ExamIndexData,
  type ExamListItem,
  type FeedbackData,
  type InvitationState,
  type RecommendData,
} from '@examhall/contract';
import type { Db } from '../db/database.js';
import { fail } from '../errors.js';
import type { Candidate } from '../repositories/candidates.js';
import { AttemptRepository, type AttemptRow } from '../repositories/attempts.js';
import { ExamRepository, type ExamRow, type InvitationRow, type Span } from '../repositories/exams.js';
import { ScheduleRepository } from '../repositories/schedule.js';
import { FeedbackRepository } from '../repositories/feedback.js';
import type { AttemptService } from './attempts.js';
import { showScoreOf } from './outcome.js';
import { slotChoiceLock } from './slotChoice.js';
import { effectiveLength, effectiveWindow, extraMinutesOf } from './timing.js';

/** Where a candidate stands with an exam, from their own window and their latest attempt. */
function stateOf(exam: Span, attempt: AttemptRow | undefined, now: number): InvitationState {
  if (attempt?.phase === ExamPhase.submit) return 'submitted';
  // An attempt past its own end is handed in (the overdue sweeper records it within seconds); extra time can
  // carry an attempt past the window's close, and it is still in progress then.
  if (attempt) return attempt.end_at !== null && now >= attempt.end_at ? 'submitted' : 'in_progress';
  if (now < exam.start_at) return 'not_started';
  if (now >= exam.end_at) return 'closed';
  return 'open';
}

/** Masks a phone number: 138****8000. */
const mask = (phone: string) => (phone.length > 7 ? `${phone.slice(0, 3)}****${phone.slice(-4)}` : '****');

/** Exams as candidates see them. */
export class ExamService {
  private readonly repo: ExamRepository;
  private readonly attemptRepo: AttemptRepository;
  private readonly schedule: ScheduleRepository;

  constructor(
    private readonly db: Db,
    private readonly attempts: AttemptService,
    private readonly clock: () => number,
  ) {
    this.repo = new ExamRepository(db);
    this.attemptRepo = new AttemptRepository(db);
    this.schedule = new ScheduleRepository(db);
  }

  /** The exams the candidate is invited to, one page, each with the candidate's own window, slot and length. */
  async listForCandidate(c: Candidate, page: number, pageSize: number): Promise<ExamIndexData> {
    const [rows, total] = await Promise.all([
      this.repo.listInvited(c.area_code, c.phone, (page - 1) * pageSize, pageSize),
      this.repo.countInvited(c.area_code, c.phone),
    ]);
    const now = this.clock();
    const list = await Promise.all(rows.map(({ exam, inv }) => this.listItem(c, exam, inv, now)));
    return { list, total };
  }

  /** One exam of the list as the candidate sees it. */
  private async listItem(c: Candidate, exam: ExamRow, inv: InvitationRow, now: number): Promise<ExamListItem> {
    const slot = inv.slot_id !== null ? ((await this.schedule.slot(inv.slot_id)) ?? null) : null;
    const window = effectiveWindow(exam, inv, slot);
    const attempt = await this.attemptRepo.latest(c.id, exam.id);
    const bundle = await this.attempts.bundleForInvitation(inv);
    const extra = extraMinutesOf(inv, exam.time_minutes);
    const lock = slotChoiceLock({ slotMode: exam.slot_mode, inv, slot, started: attempt !== undefined, now });
    return {
      id: exam.id,
      anid: inv.id,
      name: exam.name,
      mode: exam.mode as ExamListItem['mode'],
      time: exam.time_minutes + extra,
      start_at: exam.start_at,
      end_at: exam.end_at,
      state: stateOf(window, attempt, now),
      window_start: window.start_at,
      window_end: window.end_at,
      window_source: window.source,
      slot: slot && { id: slot.id, label: slot.label, start_at: slot.start_at, end_at: slot.end_at },
      slot_choosable: lock === null && (await this.schedule.slotsOf(exam.id)).length > 0,
      base_time: exam.time_minutes,
      extra_minutes: extra,
      prepare: devicesToPrepare(
        bundle.settings,
        (bundle.version.definition?.id_photo_required ?? false) && inv.preview !== 1,
      ),
    };
  }

  /** The exam detail by id and anid, with every field the candidate client reads (docs/contract.md#exam-list-and-detail). */
  async show(c: Candidate, examId: number, anid: number): Promise<ExamDetail> {
    const inv = await this.attempts.invitation(c, examId, anid);
    const attempt = await this.attempts.current(c, examId);
    // Once there is an attempt, its own version and draw; before, what the invitation opens.
    const bundle = attempt ? await this.attempts.bundleOf(attempt) : await this.attempts.bundleForInvitation(inv);
    const { exam, settings } = bundle;
    const window = await this.attempts.windowOf(inv, exam);
    return {
      id: exam.id,
      anid: inv.id,
      name: exam.name,
      description: exam.description,
      mode: exam.mode as ExamDetail['mode'],
      time: effectiveLength(inv, exam.time_minutes),
      start_at: exam.start_at,
      end_at: exam.end_at,
      window_start: window.start_at,
      window_end: window.end_at,
      userData: {
        create_time: attempt?.started_at ?? null,
        phase: (attempt?.phase ?? null) as ExamDetail['userData']['phase'],
      },
      ...settings,
      countNum: bundle.countNum,
      pledge: bundle.version.definition?.pledge ?? '',
      id_photo_missing: this.attempts.idPhotoMissing(inv, bundle.version),
    };
  }

  /** An invitation of the candidate's. */
  async anidInfo(c: Candidate, anid: number): Promise<AnidInfoData> {
    const inv = await this.repo.invitation(anid);
    if (!inv || inv.area_code !== c.area_code || inv.phone !== c.phone)
      throw fail('exam_detail_missing', 'no invitation of this account with that id');
    const bundle = await this.attempts.bundleForInvitation(inv);
    const attempt = await this.attemptRepo.latest(c.id, inv.exam_id);
    const window = await this.attempts.windowOf(inv, bundle.exam);
    return {
      anid: inv.id,
      exam_id: inv.exam_id,
      exam_name: bundle.exam.name,
      phone_masked: mask(inv.phone),
      state: stateOf(window, attempt, this.clock()),
    };
  }

  /**
   * Positions for the candidate after a finished attempt, as far as the exam shows its outcome (show_score):
   * - 'score': the best match first, where `match` is how far the result reaches toward each position's bar (a
   *   share of the points), capped at 100; among the positions the result clears (100), the highest bar first.
   * - 'pass': the same order, `match` null. Bars are never sent, so the order tells no ratio; at most that
   *   the first positions suit the result better, about as much as passed or not says.
   * - 'none': the author's order, `match` null: an order by fit would hint at a result the candidate is to
   *   be told later.
   */
  async recommend(c: Candidate, examId: number): Promise<RecommendData> {
    const { attempt, bundle } = await this.attempts.finished(c, examId);
    const show = showScoreOf(bundle.version.definition);
    const score = attempt.score ?? 0;
    const max = attempt.max_score ?? 0;
    const ratio = max > 0 ? score / max : 0;
    const positions = await this.repo.positionsFor(examId);
    const list = positions
      .map((p) => ({
        id: p.id,
        title: p.title,
        department: p.department,
        city: p.city,
        description: p.description,
        match: show === 'score' ? Math.round(100 * Math.min(1, ratio / Math.max(p.min_ratio, 0.01))) : null,
        cleared: ratio >= p.min_ratio,
        bar: p.min_ratio,
      }))
      .sort((a, b) =>
        show === 'none'
          ? a.id - b.id
          : (b.match ?? 0) - (a.match ?? 0) || Number(b.cleared) - Number(a.cleared) || b.bar - a.bar || a.id - b.id,
      )
      .map(({ cleared: _cleared, bar: _bar, ...p }) => p);
    return { list };
  }

  /** Stores feedback once per client id. */
  async feedback(
    c: Candidate,
    body: { exam_id: number; rating: number; content: string; client_id: string },
  ): Promise<FeedbackData> {
    await this.attempts.invitationByExam(c, body.exam_id);
    const id = await new FeedbackRepository(this.db).put({
      exam_id: body.exam_id,
      candidate_id: c.id,
      rating: body.rating,
      content: body.content,
      client_id: body.client_id,
      created_at: this.clock(),
    });
    return { id };
  }
}
