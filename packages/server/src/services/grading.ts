import {
  api,
  ExamPhase,
  type GradingExamListData,
  type GradingItemData,
  type GradingMarkData,
  type GradingMarkView,
  type GradingNextData,
  type GradingProgressData,
  type ParsedBody,
  type ParsedQuery,
  type ReconcileListData,
  type RubricCriterion,
} from '@examhall/contract';
import type { Db } from '../db/database.js';
import { fail } from '../errors.js';
import { AttemptRepository } from '../repositories/attempts.js';
import { GradingRepository, type MarkRow, type QueueFilter } from '../repositories/grading.js';
import { JudgeRunRepository } from '../repositories/judgeRuns.js';
import type { ObjectStore } from '../storage/objectStore.js';
import type { AccessService, StaffActor } from './access.js';
import type { AttemptService } from './attempts.js';
import type { AuditService } from './audit.js';
import type { CatalogQuestion } from './catalog.js';
import { gradingSettingsOf, marksRequired, sumScore } from './gradingRules.js';
import { manualFinal, roundPoints, storedAnswer } from './scoring.js';
import type { ScoreOutbox } from './webhooks.js';

/** How long the links to an answer's files stay valid. */
const FILE_LINK_SECONDS = 15 * 60;

/** What marking needs. */
export interface GradingDeps {
  access: AccessService;
  audit: AuditService;
  attempts: Pick<AttemptService, 'byId' | 'bundleOf' | 'withCurrentKeys'>;
  store: Pick<ObjectStore, 'presignGet'>;
  clock: () => number;
  /** Hears every score that may have become final or changed, inside its transaction (webhooks). */
  outbox?: ScoreOutbox;
}

/** A rubric as the question's key holds it (Q&A and programming Q&A). */
function rubricOf(q: CatalogQuestion): { rubric: string; criteria: RubricCriterion[] } {
  const key = (q.body?.key ?? {}) as { rubric?: string; criteria?: RubricCriterion[] };
  return { rubric: key.rubric ?? '', criteria: key.criteria ?? [] };
}

/** A mark as the console shows it. */
function markView(m: MarkRow): GradingMarkView {
  return {
    id: m.id,
    grader_id: m.grader_id,
    grader_name: m.grader_name,
    criteria: JSON.parse(m.criteria) as number[],
    total: m.total,
    comment: m.comment,
    reconciling: m.reconciling === 1,
    created_at: m.created_at,
  };
}

/**
 * Marking: the exams a grader grades, each grader's queue (two different graders per answer under double
 * marking), marks checked against the rubric, reconciliation of marks too far apart, and progress. The settings
 * and graders are set up in gradingSetup.ts; key corrections and the `rescore` job are in rescoring.ts.
 */
export class GradingService {
  private readonly repo: GradingRepository;

  constructor(
    private readonly db: Db,
    private readonly deps: GradingDeps,
  ) {
    this.repo = new GradingRepository(db);
  }

  /** The queue filter of the actor on an exam: an admin grades every section, a grader their own. */
  private async queueFilter(actor: StaffActor, examId: number, questionId?: number): Promise<QueueFilter> {
    const settings = await gradingSettingsOf(this.repo, examId);
    return {
      examId,
      graderId: actor.id,
      sections: actor.role === 'admin' ? [] : await this.repo.sectionsOf(examId, actor.id),
      required: marksRequired(settings),
      ...(questionId !== undefined ? { questionId } : {}),
    };
  }

  /** The exams the actor grades, with their counts. */
  async exams(actor: StaffActor, q: ParsedQuery<typeof api.gradingExams>): Promise<GradingExamListData> {
    const { rows, total } = await this.repo.exams(
      this.deps.access.examFilter(actor),
      q.keyword,
      (q.page - 1) * q.page_size,
      q.page_size,
    );
    const list = await Promise.all(
      rows.map(async (e) => {
        const settings = await gradingSettingsOf(this.repo, e.id);
        const counts = await this.repo.counts(e.id, marksRequired(settings));
        const sum = (k: 'total' | 'graded' | 'reconcile') => counts.reduce((n, c) => n + c[k], 0);
        const mine = this.deps.access.can(actor, 'grade.score')
          ? await this.repo.left(await this.queueFilter(actor, e.id))
          : 0;
        return {
          exam_id: e.id,
          name: e.name,
          settings,
          total: sum('total'),
          graded: sum('graded'),
          reconcile: sum('reconcile'),
          mine_left: mine,
        };
      }),
    );
    return { list, total };
  }

  /** The actor's next answer to mark on an exam. */
  async next(actor: StaffActor, q: ParsedQuery<typeof api.gradingNext>): Promise<GradingNextData> {
    await this.deps.access.requireFor(actor, api.gradingNext, q.exam_id);
    const filter = await this.queueFilter(actor, q.exam_id, q.question_id);
    const next = await this.repo.next(filter);
    return { next: next ?? null, left: await this.repo.left(filter) };
  }

  /**
   * The answer an actor may grade: an attempt they reach, a question graders score in it, in a section they
   * grade. Anything else is not found.
   */
  private async answerOf(actor: StaffActor, attemptId: number, questionId: number) {
    const attempt = await this.deps.attempts.byId(attemptId);
    const row =
      attempt && attempt.phase === ExamPhase.submit ? await this.repo.score(attemptId, questionId) : undefined;
    if (!attempt || !row || row.source !== 'manual') {
      throw fail('not_found', `no answer to grade of question ${questionId} in attempt ${attemptId}`);
    }
    // The rubric as stored now, even when another API process corrected it.
    const attempts = this.deps.attempts;
    const bundle = await attempts.withCurrentKeys(attempt, await attempts.bundleOf(attempt));
    const question = bundle.byId.get(questionId);
    if (!question) throw fail('not_found', `no question ${questionId} in attempt ${attemptId}`);
    if (actor.role !== 'admin') {
      const sections = await this.repo.sectionsOf(attempt.exam_id, actor.id);
      if (sections.length > 0 && !sections.includes(question.section)) {
        throw fail('not_found', `no answer to grade of question ${questionId} in attempt ${attemptId}`);
      }
    }
    return { attempt, row, question, settings: await gradingSettingsOf(this.repo, attempt.exam_id) };
  }

  /** Where an answer stands, from its final points and marks. */
  private static state(points: number | null, marks: MarkRow[], required: number): GradingItemData['state'] {
    if (points !== null) return 'graded';
    return marks.filter((m) => m.reconciling === 0).length >= required ? 'reconcile' : 'waiting';
  }

  /** One answer with its question, rubric, the candidate's work and the marks the actor may see. */
  async item(actor: StaffActor, q: ParsedQuery<typeof api.gradingItem>): Promise<GradingItemData> {
    await this.deps.access.requireFor(actor, api.gradingItem, q.attempt_id);
    const { attempt, row, question, settings } = await this.answerOf(actor, q.attempt_id, q.question_id);
    const marks = await this.repo.marks(q.attempt_id, q.question_id);
    const state = GradingService.state(row.points, marks, marksRequired(settings));
    const stored = (await new AttemptRepository(this.db).answers(attempt.id)).find(
      (a) => a.question_id === question.id,
    );
    const answer = storedAnswer(stored?.value);
    const files = answer?.kind === 'text' ? answer.files : [];
    const blind = settings.blind && (await this.repo.hasPending(attempt.exam_id));
    const who = blind ? null : await this.repo.candidateOf(attempt.id);
    const runs = await new JudgeRunRepository(this.db).ofQuestion(attempt.id, question.id);
    const { rubric, criteria } = rubricOf(question);
    const mine = marks.find((m) => m.grader_id === actor.id && m.reconciling === 0);
    const content = (question.body?.content ?? {}) as { stem?: string };
    return {
      exam_id: attempt.exam_id,
      attempt_id: attempt.id,
      question_id: question.id,
      type: question.type,
      section: question.section === 'major' ? 'major' : 'linetest',
      order_num: question.order_num,
      max: question.score,
      stem: content.stem ?? '',
      rubric,
      criteria: criteria.map((c) => ({ title: c.title, points: c.points, description: c.description })),
      blind,
      candidate: who ? { name: who.name ?? '', phone: who.phone, school: who.school ?? '' } : null,
      answer,
      files: await Promise.all(
        files.map(async (key) => ({ key, url: await this.deps.store.presignGet(key, FILE_LINK_SECONDS) })),
      ),
      runs: runs.map((r) => ({
        id: r.id,
        mode: r.mode,
        language: r.language,
        source: r.source,
        verdict: r.verdict,
        passed: r.passed,
        total: r.total,
        created_at: r.created_at,
      })),
      state,
      final: row.points,
      my_mark: mine ? markView(mine) : null,
      // Independent marking: a grader sees the other marks only once the answer is out of the queue.
      marks: state === 'waiting' ? [] : marks.map(markView),
    };
  }

  /** The points of a mark on the question's points in the exam; a criterion over its points is refused. */
  private static total(body: ParsedBody<typeof api.gradingMark>, criteria: RubricCriterion[], max: number): number {
    if (criteria.length === 0) {
      if (body.points === undefined) throw fail('validation_error', 'points: give points for the answer');
      if (body.points > max) throw fail('validation_error', `points: at most ${max} points`);
      return roundPoints(body.points);
    }
    if (body.criteria.length !== criteria.length) {
      throw fail('validation_error', `criteria: give points for each of the ${criteria.length} criteria`);
    }
    body.criteria.forEach((p, i) => {
      if (p > criteria[i]!.points) {
        throw fail(
          'validation_error',
          `criteria.${i}: at most ${criteria[i]!.points} points for ${criteria[i]!.title}`,
        );
      }
    });
    const given = body.criteria.reduce((n, p) => n + p, 0);
    const worth = criteria.reduce((n, c) => n + c.points, 0);
    // The rubric's points are scaled to what the question is worth in this exam.
    return roundPoints((given * max) / worth);
  }

  /** Stores a grader's mark, decides the answer when it can, and updates the attempt's final score (audited). */
  async mark(actor: StaffActor, body: ParsedBody<typeof api.gradingMark>): Promise<GradingMarkData> {
    await this.deps.access.requireFor(actor, api.gradingMark, body.attempt_id);
    return this.store(actor, body, false);
  }

  /**
   * The deciding mark of an answer whose two marks are too far apart (audited). Who decides: someone who reaches
   * the answer and gave neither mark, that is another grader assigned to the exam (in the answer's section), an
   * author of the exam's team or an admin. Whoever gave one of the marks would be settling their own
   * disagreement, and answers `reconcile_own_mark`.
   */
  async reconcileMark(actor: StaffActor, body: ParsedBody<typeof api.gradingReconcileMark>): Promise<GradingMarkData> {
    await this.deps.access.requireFor(actor, api.gradingReconcileMark, body.attempt_id);
    if (!this.deps.access.can(actor, 'grade.score') && !this.deps.access.can(actor, 'exam.manage')) {
      throw fail('forbidden', `the ${actor.role} role may not decide marks`);
    }
    return this.store(actor, body, true);
  }

  /** Stores a mark (`reconcile`: the deciding one) and the answer's and attempt's scores that follow. */
  private async store(
    actor: StaffActor,
    body: ParsedBody<typeof api.gradingMark>,
    reconcile: boolean,
  ): Promise<GradingMarkData> {
    const { attempt, question, settings } = await this.answerOf(actor, body.attempt_id, body.question_id);
    const total = GradingService.total(body, rubricOf(question).criteria, question.score);
    const required = marksRequired(settings);
    const now = this.deps.clock();
    const result = await this.db.transaction().execute(async (trx) => {
      const repo = new GradingRepository(trx);
      // Locked first: a mark made at the same moment by another grader is counted before this one is taken.
      const row = (await repo.lockScore(attempt.id, question.id))!;
      const marks = await repo.marks(attempt.id, question.id);
      const state = GradingService.state(row.points, marks, required);
      if (reconcile) {
        if (state === 'graded') throw fail('answer_already_graded');
        if (state === 'waiting') throw fail('conflict', 'this answer does not wait for reconciliation');
        if (marks.some((m) => m.grader_id === actor.id && m.reconciling === 0)) throw fail('reconcile_own_mark');
      } else {
        if (state !== 'waiting') throw fail('answer_already_graded');
        if (marks.some((m) => m.grader_id === actor.id && m.reconciling === 0)) {
          throw fail('answer_already_graded', 'you have already marked this answer');
        }
      }
      const id = await repo.addMark({
        attempt_id: attempt.id,
        question_id: question.id,
        exam_id: attempt.exam_id,
        grader_id: actor.id,
        criteria: JSON.stringify(body.criteria),
        total,
        comment: body.comment,
        reconciling: reconcile ? 1 : 0,
        created_at: now,
      });
      const all = await repo.marks(attempt.id, question.id);
      const final = manualFinal(
        all.map((m) => ({ total: m.total, reconciling: m.reconciling === 1 })),
        settings,
        question.score,
      );
      await repo.setPoints(attempt.id, question.id, final, now);
      const score = await sumScore(trx, attempt.id);
      await this.deps.outbox?.noteScore(trx, attempt.id);
      const mark = markView(all.find((m) => m.id === id)!);
      await this.deps.audit
        .with(trx)
        .record(
          actor,
          reconcile ? 'grading.reconcile' : 'grading.mark',
          { kind: 'attempt', id: attempt.id },
          { question_id: question.id, points: row.points, attempt_score: attempt.score },
          { question_id: question.id, mark, points: final, attempt_score: score },
        );
      return { mark, state: GradingService.state(final, all, required), final };
    });
    return result;
  }

  /** Answers waiting for a reconciling mark, with both marks. */
  async reconcile(actor: StaffActor, q: ParsedQuery<typeof api.gradingReconcile>): Promise<ReconcileListData> {
    await this.deps.access.requireFor(actor, api.gradingReconcile, q.exam_id);
    const settings = await gradingSettingsOf(this.repo, q.exam_id);
    const { rows, total } = await this.repo.toReconcile(
      q.exam_id,
      marksRequired(settings),
      (q.page - 1) * q.page_size,
      q.page_size,
    );
    const list = await Promise.all(
      rows.map(async (r) => {
        const marks = (await this.repo.marks(r.attempt_id, r.question_id)).filter((m) => m.reconciling === 0);
        const totals = marks.map((m) => m.total);
        return {
          ...r,
          marks: marks.map(markView),
          difference: roundPoints(Math.max(...totals) - Math.min(...totals)),
        };
      }),
    );
    return { list, total };
  }

  /** Grading progress of an exam: per grader and per question. */
  async progress(actor: StaffActor, examId: number): Promise<GradingProgressData> {
    await this.deps.access.requireFor(actor, api.gradingProgress, examId);
    const settings = await gradingSettingsOf(this.repo, examId);
    const questions = await this.repo.counts(examId, marksRequired(settings));
    const sum = (k: 'total' | 'graded' | 'reconcile') => questions.reduce((n, c) => n + c[k], 0);
    return {
      total: sum('total'),
      graded: sum('graded'),
      reconcile: sum('reconcile'),
      graders: await this.repo.marksPerGrader(examId),
      questions,
    };
  }
}
