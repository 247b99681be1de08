import {
  CHECK_IN_MINUTES,
  ExamMode,
  ExamPhase,
  formatServerTime,
  missingChecks,
  type AttemptView,
} from '@examhall/contract';
import type { Db } from '../db/database.js';
import { fail } from '../errors.js';
import type { ProctorNotifier } from '../proctoring/notifier.js';
import { AttemptRepository } from '../repositories/attempts.js';
import type { Candidate } from '../repositories/candidates.js';
import { CheckRepository } from '../repositories/checks.js';
import type { AdmissionService } from './admission.js';
import type { AttemptService } from './attempts.js';
import { drawForAttempt } from './draw.js';
import { attemptEnd } from './timing.js';

/** What entering an exam needs. */
export interface AttemptEntryDeps {
  /** The invitation, what it opens, the candidate's window and latest attempt. */
  attempts: Pick<
    AttemptService,
    'invitation' | 'bundleForInvitation' | 'windowOf' | 'current' | 'bundleOf' | 'idPhotoMissing' | 'view'
  >;
  /** Paces entries when many enter at once. */
  admission: Pick<AdmissionService, 'admit'>;
  /** Hears every change of an attempt's phase (the proctor console, the candidate's live stream). */
  notifier?: Pick<ProctorNotifier, 'announce'>;
  clock: () => number;
}

/**
 * A candidate entering an exam: the attempt created (its draw made once and stored) or resumed, and the clock
 * started once the checks have passed, within the candidate's own window and the admission's pace.
 */
export class AttemptEntryService {
  private readonly attempts: AttemptRepository;
  private readonly checks: CheckRepository;

  constructor(
    db: Db,
    private readonly deps: AttemptEntryDeps,
  ) {
    this.attempts = new AttemptRepository(db);
    this.checks = new CheckRepository(db);
  }

  /**
   * Creates or resumes the attempt; with `enterExam` it leaves the device checks and starts the clock, once every
   * check the exam requires has passed (or been skipped where the exam allows it).
   * Practice (simulate) starts a new attempt after each finished one; the other modes have one attempt.
   */
  async start(c: Candidate, examId: number, anid: number, enterExam: boolean): Promise<AttemptView> {
    const { attempts: reads, notifier } = this.deps;
    const inv = await reads.invitation(c, examId, anid);
    const opened = await reads.bundleForInvitation(inv);
    const { exam } = opened;
    const now = this.deps.clock();
    const window = await reads.windowOf(inv, exam);
    // The device checks may be done from CHECK_IN_MINUTES before the opening; the exam itself starts at it.
    if (now < window.start_at - CHECK_IN_MINUTES * 60_000)
      throw fail('exam_not_open', `the exam opens at ${formatServerTime(window.start_at)} (UTC+8)`, {
        opens_at: window.start_at,
        check_in_at: window.start_at - CHECK_IN_MINUTES * 60_000,
      });

    let attempt = await reads.current(c, examId);
    const retake = attempt?.phase === ExamPhase.submit && exam.mode === ExamMode.simulate;
    if (!attempt || retake) {
      if (now >= window.end_at) throw fail('exam_not_open', 'the exam has closed');
      const { version } = opened;
      // The draw is made once, here, and stored: reloads and new logins get the same questions.
      const drawn = drawForAttempt(version, version.definition?.shuffle_questions ?? false);
      attempt = await this.attempts.create({
        exam_id: examId,
        candidate_id: c.id,
        invitation_id: inv.id,
        mode: exam.mode,
        phase: ExamPhase.monitor,
        created_at: now,
        version_id: version.id,
        question_ids: drawn ? JSON.stringify(drawn) : null,
        preview: inv.preview,
      });
      notifier?.announce({ type: 'attempt', attemptId: attempt.id });
    }
    if (enterExam && attempt.phase === ExamPhase.monitor) {
      if (now >= window.end_at) throw fail('exam_not_open', 'the exam has closed');
      if (now < window.start_at)
        throw fail('exam_not_open', `the exam opens at ${formatServerTime(window.start_at)} (UTC+8)`, {
          opens_at: window.start_at,
        });
      const runsOn = await reads.bundleOf(attempt);
      // The rule of the version the attempt runs on, against the invitation as stored now.
      if (reads.idPhotoMissing(inv, runsOn.version)) throw fail('id_photo_missing');
      const missing = missingChecks(runsOn.settings, await this.checks.results(attempt.id));
      if (missing.length > 0) throw fail('checks_incomplete', `these checks have not passed: ${missing.join(', ')}`);
      // Paced when many enter at once: the candidate is told their place and asks again (keeping it).
      await this.deps.admission.admit(attempt.id);
      const endAt = attemptEnd(exam.mode, exam.time_minutes, inv, window, now);
      await this.attempts.updateInPhase(attempt.id, ExamPhase.monitor, {
        phase: ExamPhase.exam,
        started_at: now,
        end_at: endAt,
      });
      attempt = (await this.attempts.byId(attempt.id))!;
      notifier?.announce({ type: 'attempt', attemptId: attempt.id });
    }
    return reads.view(attempt, await reads.bundleOf(attempt));
  }
}
