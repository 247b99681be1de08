import { DEFAULT_GRADING_SETTINGS, ExamPhase, hasContent, type AttemptView } from '@examhall/contract';
import type { ServiceLog } from '../log.js';
import type { Db } from '../db/database.js';
import { fail } from '../errors.js';
import type { Candidate } from '../repositories/candidates.js';
import { AttemptRepository, type AttemptRow } from '../repositories/attempts.js';
import { ExamRepository, type InvitationRow, type Span } from '../repositories/exams.js';
import { ScheduleRepository } from '../repositories/schedule.js';
import type { ProctorNotifier } from '../proctoring/notifier.js';
import {
  EMPTY_VERSION_ID,
  emptyVersion,
  type CatalogQuestion,
  type ExamBundle,
  type ExamCatalog,
  type ExamHead,
  type VersionBundle,
} from './catalog.js';
import { JudgeRunRepository } from '../repositories/judgeRuns.js';
import { GradingRepository, type NewQuestionScore } from '../repositories/grading.js';
import { automaticPoints, manualFinal, roundPoints, scoreSource, storedAnswer } from './scoring.js';
import { effectiveWindow, type EffectiveWindow } from './timing.js';
import type { ScoreOutbox } from './webhooks.js';

/** Why an attempt ended. */
export type FinishReason = 'submit' | 'timeout' | 'cuts' | 'proctor';

/** An attempt the candidate may write to now, with its exam. */
export interface WritableAttempt {
  attempt: AttemptRow;
  bundle: ExamBundle;
}

/** A submitted attempt with the exam it ran on. */
export type FinishedAttempt = WritableAttempt;

/** An attempt's points: one row per question, and the final score and maximum they add up to. */
export interface AttemptScore {
  rows: NewQuestionScore[];
  score: number;
  max: number;
}

/** What attempts need. */
export interface AttemptDeps {
  catalog: ExamCatalog;
  clock: () => number;
  log: ServiceLog;
  /** Hears every change of an attempt's phase (the proctor console, the candidate's live stream). */
  notifier?: Pick<ProctorNotifier, 'announce'>;
  /** Hears every score that may have become final or changed, inside its transaction (webhooks). */
  outbox?: ScoreOutbox;
}

/**
 * Attempts as the server keeps them: the invitation and the exam version an attempt runs on, its clock (the
 * latest attempt finished once its time is up, the overdue sweep), finishing and scoring. The server owns time
 * and phase. Entering is attemptEntry.ts's; submitting and the candidate's result, attemptResults.ts's.
 */
export class AttemptService {
  private readonly attempts: AttemptRepository;
  private readonly exams: ExamRepository;
  private readonly schedule: ScheduleRepository;

  constructor(
    private readonly db: Db,
    private readonly deps: AttemptDeps,
  ) {
    this.attempts = new AttemptRepository(db);
    this.exams = new ExamRepository(db);
    this.schedule = new ScheduleRepository(db);
  }

  /** The invitation `anid` of this candidate to `examId`, or not found (never telling whose it is). */
  async invitation(c: Candidate, examId: number, anid: number): Promise<InvitationRow> {
    const inv = await this.exams.invitation(anid);
    // A revoked invitation opens nothing (it is revoked only before its candidate starts).
    if (
      !inv ||
      inv.exam_id !== examId ||
      inv.area_code !== c.area_code ||
      inv.phone !== c.phone ||
      inv.revoked_at !== null
    ) {
      throw fail('exam_detail_missing');
    }
    return inv;
  }

  /** The candidate's invitation to an exam by exam id alone. */
  async invitationByExam(c: Candidate, examId: number): Promise<InvitationRow> {
    const inv = await this.exams.invitationFor(examId, c.area_code, c.phone);
    if (!inv || inv.revoked_at !== null) throw fail('exam_detail_missing');
    return inv;
  }

  /** The exam's row as candidates read it, or 'failed to get exam detail'. */
  async head(examId: number): Promise<ExamHead> {
    const head = await this.deps.catalog.head(examId);
    if (!head) throw fail('exam_detail_missing');
    return head;
  }

  /** A version, or 'failed to get exam detail'. */
  private async version(versionId: number): Promise<VersionBundle> {
    const version = await this.deps.catalog.version(versionId);
    if (!version) throw fail('exam_detail_missing');
    return version;
  }

  /**
   * The exam before an attempt exists: its published version, draw sections counted by what a candidate
   * draws (an exam not published yet has no questions); 'failed to get exam detail' when there is no exam.
   */
  async bundle(examId: number): Promise<ExamBundle> {
    const head = await this.head(examId);
    const publishedId = head.exam.published_version_id;
    const version = publishedId !== null ? await this.version(publishedId) : emptyVersion(examId);
    return this.deps.catalog.bundle(head, version, null);
  }

  /** `bundle`, or the attempt's bundle read again when its version's keys were corrected since it was read. */
  async withCurrentKeys(attempt: AttemptRow, bundle: ExamBundle): Promise<ExamBundle> {
    return (await this.deps.catalog.keysCurrent(bundle.version)) ? bundle : this.bundleOf(attempt);
  }

  /** What an attempt runs on: its own version and the questions it got. */
  async bundleOf(attempt: AttemptRow): Promise<ExamBundle> {
    if (attempt.version_id === null) return this.bundle(attempt.exam_id);
    const version = await this.version(attempt.version_id);
    const head = await this.headFor(attempt.exam_id, version);
    return this.deps.catalog.bundle(head, version, attempt.question_ids);
  }

  /** The exam as an invitation opens it: a preview invitation its preview version, any other the published one. */
  async bundleForInvitation(inv: InvitationRow): Promise<ExamBundle> {
    if (inv.version_id === null) {
      const bundle = await this.bundle(inv.exam_id);
      // An exam not published yet is nothing to the people invited to it.
      if (bundle.version.id === EMPTY_VERSION_ID) throw fail('exam_detail_missing');
      return bundle;
    }
    const version = await this.version(inv.version_id);
    return this.deps.catalog.bundle(await this.headFor(inv.exam_id, version), version, null);
  }

  /**
   * A question of an exam by id with its version, from memory once the version was loaded (the answer save's
   * lookup); null when there is no such question in any version of the exam.
   */
  async question(examId: number, questionId: number): Promise<{ q: CatalogQuestion; versionId: number } | null> {
    const versionId = await this.deps.catalog.versionOfQuestion(questionId);
    if (versionId === null) return null;
    const version = await this.deps.catalog.version(versionId);
    const q = version?.exam_id === examId ? version.byId.get(questionId) : undefined;
    return q ? { q, versionId } : null;
  }

  /** True when a question of `versionId` is one the attempt got (its version, and its draw if it drew). */
  holds(attempt: Pick<AttemptRow, 'version_id' | 'question_ids'>, versionId: number, questionId: number): boolean {
    if (attempt.version_id !== versionId) return false;
    return attempt.question_ids === null || this.deps.catalog.questionSet(attempt.question_ids).has(questionId);
  }

  /**
   * True when the version needs an ID photo on the invitation and it has none yet: entering the exam is
   * refused until staff add one. A preview invitation never needs one (the author checks the pages, and
   * nobody can set a photo on it).
   */
  idPhotoMissing(inv: InvitationRow, version: VersionBundle): boolean {
    return (version.definition?.id_photo_required ?? false) && inv.id_photo_key === null && inv.preview !== 1;
  }

  /** The candidate's own window for an invitation to an exam: personal window ?? slot ?? the exam's. */
  async windowOf(inv: InvitationRow, exam: Span): Promise<EffectiveWindow> {
    const slot = inv.slot_id !== null ? await this.schedule.slot(inv.slot_id) : undefined;
    return effectiveWindow(exam, inv, slot ?? null);
  }

  /** The head of a version: a preview shows its own frozen definition, a published version the exams row. */
  private async headFor(examId: number, version: VersionBundle): Promise<ExamHead> {
    if (!version.preview) return this.head(examId);
    const head = this.deps.catalog.previewHead(version, examId);
    if (!head) throw fail('exam_detail_missing');
    return head;
  }

  /** The candidate's latest attempt (see `current`); exam_not_started when there is none, exam_detail_missing when not invited. */
  async started(c: Candidate, examId: number): Promise<AttemptRow> {
    const attempt = await this.current(c, examId);
    if (attempt) return attempt;
    await this.invitationByExam(c, examId);
    throw fail('exam_not_started');
  }

  /** The candidate's latest attempt, finished first if its time is up. */
  async current(c: Candidate, examId: number): Promise<AttemptRow | undefined> {
    const latest = await this.attempts.latest(c.id, examId);
    if (latest && latest.phase === ExamPhase.exam && latest.end_at !== null && latest.end_at <= this.deps.clock()) {
      return this.finish(latest.id, 'timeout');
    }
    return latest;
  }

  /** The attempt the candidate may write to now; otherwise the stable reason why not. */
  async writable(c: Candidate, examId: number): Promise<WritableAttempt> {
    await this.head(examId);
    const attempt = await this.started(c, examId);
    if (attempt.phase === ExamPhase.monitor) throw fail('exam_not_started');
    if (attempt.phase === ExamPhase.submit) throw fail('exam_finished');
    return { attempt, bundle: await this.bundleOf(attempt) };
  }

  /** The candidate's submitted attempt with its exam; otherwise the stable reason why there is none. */
  async finished(c: Candidate, examId: number): Promise<FinishedAttempt> {
    const attempt = await this.started(c, examId);
    if (attempt.phase !== ExamPhase.submit) throw fail('exam_not_finished');
    return { attempt, bundle: await this.bundleOf(attempt) };
  }

  /** Ends an attempt and scores it; safe to call from several places at once. */
  async finish(attemptId: number, reason: FinishReason): Promise<AttemptRow> {
    const attempt = await this.attempts.byId(attemptId);
    if (!attempt) throw fail('not_found');
    if (attempt.phase === ExamPhase.submit) return attempt;
    const bundle = await this.bundleOf(attempt);
    const scored = await this.score(attempt, bundle);
    // The phase and the per-question rows commit together, so a finished attempt always has its rows.
    const moved = await this.db.transaction().execute(async (trx) => {
      const ok = await new AttemptRepository(trx).updateInPhase(attempt.id, attempt.phase, {
        phase: ExamPhase.submit,
        finished_at: this.deps.clock(),
        finish_reason: reason,
        score: scored.score,
        max_score: scored.max,
      });
      if (ok) {
        const grading = new GradingRepository(trx);
        await grading.replaceScores(attempt.id, scored.rows);
        await grading.keepTotals(attempt.id);
        await this.deps.outbox?.noteScore(trx, attempt.id);
      }
      return ok;
    });
    if (moved) {
      this.deps.log.info({ attempt: attempt.id, reason }, 'attempt finished');
      this.deps.notifier?.announce({ type: 'attempt', attemptId: attempt.id });
    }
    return (await this.attempts.byId(attempt.id))!;
  }

  /** An attempt by id. */
  byId(attemptId: number): Promise<AttemptRow | undefined> {
    return this.attempts.byId(attemptId);
  }

  /** Finishes every open attempt whose time is up; returns how many. */
  async sweepOverdue(): Promise<number> {
    let done = 0;
    for (;;) {
      const ids = await this.attempts.overdue(this.deps.clock(), 100);
      for (const id of ids) await this.finish(id, 'timeout');
      done += ids.length;
      if (ids.length < 100) return done;
    }
  }

  /**
   * An attempt's points per question and in all: automatic ones by each kind's rule, programming ones from
   * their latest judged submit, graders' ones from their marks (null while an answer waits; an empty answer
   * earns 0 with no grader). The final score adds them all; the maximum is every scored question's points.
   * A version whose key was corrected since `bundle` was read (in any API process) is read again first.
   */
  async score(attempt: AttemptRow, given: ExamBundle): Promise<AttemptScore> {
    const bundle = await this.withCurrentKeys(attempt, given);
    const answers = new Map((await this.attempts.answers(attempt.id)).map((a) => [a.question_id, a]));
    const submits = await new JudgeRunRepository(this.db).latestSubmits(attempt.id);
    const grading = new GradingRepository(this.db);
    const settingsRow = await grading.settings(attempt.exam_id);
    const settings = settingsRow
      ? { blind: settingsRow.blind === 1, double_marking: settingsRow.double_marking === 1, margin: settingsRow.margin }
      : DEFAULT_GRADING_SETTINGS;
    const rows: NewQuestionScore[] = [];
    let score = 0;
    let max = 0;
    for (const q of bundle.ordered) {
      const answer = storedAnswer(answers.get(q.id)?.value);
      let source = scoreSource(q);
      let points: number | null;
      if (source === 'manual') {
        const marks = (await grading.marks(attempt.id, q.id)).map((m) => ({
          total: m.total,
          reconciling: m.reconciling === 1,
        }));
        // An empty answer earns 0 without a grader: it is no answer to grade.
        if (hasContent(answer) || marks.length > 0) points = manualFinal(marks, settings, q.score);
        else [source, points] = ['auto', 0];
      } else {
        if (!q.body) this.deps.log.warn({ question: q.id, problem: q.problem }, 'question no longer parses; scored 0');
        points = roundPoints(automaticPoints(q, answer, submits.get(q.id)));
      }
      rows.push({
        attempt_id: attempt.id,
        question_id: q.id,
        exam_id: attempt.exam_id,
        source,
        points,
        max: q.score,
        updated_at: this.deps.clock(),
      });
      max += q.score;
      score += points ?? 0;
    }
    return { rows, score: roundPoints(score), max: roundPoints(max) };
  }

  /** Scores a finished attempt again (a submit judged after the end, a grader's mark, a corrected key). */
  async rescoreIfFinished(attemptId: number): Promise<AttemptScore | null> {
    const attempt = await this.attempts.byId(attemptId);
    if (!attempt || attempt.phase !== ExamPhase.submit) return null;
    const scored = await this.score(attempt, await this.bundleOf(attempt));
    await this.db.transaction().execute(async (trx) => {
      await new AttemptRepository(trx).setScore(attemptId, scored.score, scored.max);
      const grading = new GradingRepository(trx);
      await grading.replaceScores(attemptId, scored.rows);
      await grading.keepTotals(attemptId);
      await this.deps.outbox?.noteScore(trx, attemptId);
    });
    return scored;
  }

  /**
   * Questions of an attempt whose stored answer holds something (an emptied answer does not count): the one
   * definition the order lists, the evaluation card and the result share, as the exam page does.
   */
  async answeredIds(attemptId: number): Promise<Set<number>> {
    const rows = await this.attempts.answers(attemptId);
    return new Set(rows.filter((a) => hasContent(storedAnswer(a.value))).map((a) => a.question_id));
  }

  /** The attempt as the candidate sees it. */
  view(a: AttemptRow, bundle: ExamBundle): AttemptView {
    return {
      id: a.id,
      exam_id: a.exam_id,
      mode: a.mode as AttemptView['mode'],
      phase: a.phase as AttemptView['phase'],
      create_time: a.started_at,
      end_time: a.end_at,
      finished_at: a.finished_at,
      cuts_left: bundle.settings.cutting_times - a.cuts_used,
    };
  }
}
