import {
  api,
  DEFAULT_GRADING_SETTINGS,
  ExamPhase,
  parseQuestion,
  type GradingExamListData,
  type GradingItemData,
  type GradingKeyData,
  type GradingMarkData,
  type GradingMarkView,
  type GradingNextData,
  type GradingProgressData,
  type GradingSettings,
  type GradingSetupData,
  type ParsedBody,
  type ParsedQuery,
  type ReconcileListData,
  type RubricCriterion,
} from '@examhall/contract';
import type { Db } from '../db/database.js';
import { fail } from '../errors.js';
import type { JobContext } from '../jobs/types.js';
import { AttemptRepository } from '../repositories/attempts.js';
import { GradingRepository, type MarkRow, type QueueFilter } from '../repositories/grading.js';
import { JudgeRunRepository } from '../repositories/judgeRuns.js';
import { TeamRepository } from '../repositories/teams.js';
import type { ObjectStore } from '../storage/objectStore.js';
import type { AccessService, StaffActor } from './access.js';
import type { AttemptService } from './attempts.js';
import type { AuditService } from './audit.js';
import { parseQuestionIds, type CatalogQuestion, type ExamCatalog } from './catalog.js';
import type { JobService } from './jobs.js';
import type { ServiceLog } from '../log.js';
import { manualFinal, roundPoints, storedAnswer } from './scoring.js';
import type { ScoreOutbox } from './webhooks.js';

/** How long the links to an answer's files stay valid. */
const FILE_LINK_SECONDS = 15 * 60;

/** What the `rescore` job is given. */
export interface RescorePayload {
  [key: string]: string | number | null;
  title: string;
  exam_id: number;
  version_id: number;
  question_id: number;
  staff_id: number | null;
}

/** What the `rescore` job answers. */
export interface RescoreResult {
  [key: string]: number;
  /** Finished attempts that hold the question. */
  attempts: number;
  /** Those whose final score changed. */
  changed: number;
}

/** What grading needs from the other services. */
export interface GradingDeps {
  access: AccessService;
  audit: AuditService;
  attempts: AttemptService;
  catalog: ExamCatalog;
  jobs: JobService;
  store: ObjectStore;
  clock: () => number;
  log: ServiceLog;
  /** Hears every score that may have become final or changed, inside its transaction (webhooks). */
  outbox?: ScoreOutbox;
  actorById: (id: number) => Promise<StaffActor | null>;
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
 * Grading: graders per exam or section, each grader's queue (two different graders per answer under double
 * marking), marks checked against the rubric, reconciliation of marks too far apart, progress, and key
 * corrections that re-score finished attempts in the background.
 */
export class GradingService {
  private readonly repo: GradingRepository;

  constructor(
    private readonly db: Db,
    private readonly deps: GradingDeps,
  ) {
    this.repo = new GradingRepository(db);
  }

  /** An exam's grading settings (the defaults when it set none). */
  async settingsOf(examId: number, repo = this.repo): Promise<GradingSettings> {
    const row = await repo.settings(examId);
    if (!row) return DEFAULT_GRADING_SETTINGS;
    return { blind: row.blind === 1, double_marking: row.double_marking === 1, margin: row.margin };
  }

  /** Marks an answer needs before it is decided. */
  private static required(s: GradingSettings): number {
    return s.double_marking ? 2 : 1;
  }

  /** An exam's settings and graders. */
  async setup(actor: StaffActor, examId: number): Promise<GradingSetupData> {
    await this.deps.access.requireFor(actor, api.gradingSetup, examId);
    return this.setupOf(examId);
  }

  private async setupOf(examId: number): Promise<GradingSetupData> {
    return {
      settings: await this.settingsOf(examId),
      graders: (await this.repo.graders(examId)).map((g) => ({
        ...g,
        sections: g.sections as GradingSetupData['graders'][number]['sections'],
      })),
    };
  }

  /** Changes an exam's grading settings (audited). */
  async saveSettings(actor: StaffActor, body: ParsedBody<typeof api.gradingSettings>): Promise<GradingSetupData> {
    await this.deps.access.requireFor(actor, api.gradingSettings, body.exam_id);
    const before = await this.settingsOf(body.exam_id);
    const after: GradingSettings = { blind: body.blind, double_marking: body.double_marking, margin: body.margin };
    await this.db.transaction().execute(async (trx) => {
      await new GradingRepository(trx).saveSettings({
        exam_id: body.exam_id,
        blind: after.blind ? 1 : 0,
        double_marking: after.double_marking ? 1 : 0,
        margin: after.margin,
        updated_at: this.deps.clock(),
        updated_by: actor.id,
      });
      const redecided = await this.redecide(trx, body.exam_id, after);
      await this.deps.audit
        .with(trx)
        .record(actor, 'grading.settings', { kind: 'exam', id: body.exam_id }, before, { ...after, redecided });
    });
    return this.setupOf(body.exam_id);
  }

  /**
   * Decides every marked answer of the exam again under new settings (a wider margin settles two marks, double
   * marking turned on waits for a second one) and updates the final scores that change; answers how many did.
   */
  private async redecide(trx: Db, examId: number, settings: GradingSettings): Promise<number> {
    const repo = new GradingRepository(trx);
    const touched = new Set<number>();
    for (const a of await repo.marked(examId)) {
      const marks = await repo.marks(a.attempt_id, a.question_id);
      const final = manualFinal(
        marks.map((m) => ({ total: m.total, reconciling: m.reconciling === 1 })),
        settings,
        a.max,
      );
      if (final === a.points) continue;
      await repo.setPoints(a.attempt_id, a.question_id, final, this.deps.clock());
      touched.add(a.attempt_id);
    }
    for (const attemptId of touched) {
      await GradingService.sumScore(trx, attemptId);
      await this.deps.outbox?.noteScore(trx, attemptId);
    }
    return touched.size;
  }

  /** Sets an attempt's final score to the sum of its per-question rows (and its kept totals with it). */
  private static async sumScore(trx: Db, attemptId: number): Promise<number> {
    const grading = new GradingRepository(trx);
    const rows = await grading.scoresOf(attemptId);
    const score = roundPoints(rows.reduce((n, r) => n + (r.points ?? 0), 0));
    const max = roundPoints(rows.reduce((n, r) => n + r.max, 0));
    await new AttemptRepository(trx).setScore(attemptId, score, max);
    await grading.keepTotals(attemptId);
    return score;
  }

  /** Assigns a grader to the exam, for the whole exam or some sections (audited). */
  async assign(actor: StaffActor, body: ParsedBody<typeof api.gradingAssign>): Promise<GradingSetupData> {
    await this.deps.access.requireFor(actor, api.gradingAssign, body.exam_id);
    // The grader must be an account the actor reaches, in the grader role (else 404, as for any resource).
    await this.deps.access.require(actor, 'exam.manage', 'staff', body.staff_id);
    const member = await this.deps.actorById(body.staff_id);
    if (!member || member.role !== 'grader') throw fail('not_found', `no such grader ${body.staff_id}`);
    const sections = [...new Set(body.sections)].sort();
    await this.db.transaction().execute(async (trx) => {
      const teams = new TeamRepository(trx);
      const repo = new GradingRepository(trx);
      const assigned = await teams.assignment(body.exam_id, body.staff_id, 'grader');
      const before = assigned
        ? { staff_id: body.staff_id, sections: await repo.sectionsOf(body.exam_id, body.staff_id) }
        : null;
      if (!assigned) {
        await teams.assign({
          exam_id: body.exam_id,
          staff_id: body.staff_id,
          role: 'grader',
          created_at: this.deps.clock(),
        });
      }
      await repo.setSections(body.exam_id, body.staff_id, sections);
      await this.deps.audit.with(trx).record(actor, 'grading.assign', { kind: 'exam', id: body.exam_id }, before, {
        staff_id: body.staff_id,
        sections,
      });
    });
    return this.setupOf(body.exam_id);
  }

  /** The queue filter of the actor on an exam: an admin grades every section, a grader their own. */
  private async queueFilter(actor: StaffActor, examId: number, questionId?: number): Promise<QueueFilter> {
    const settings = await this.settingsOf(examId);
    return {
      examId,
      graderId: actor.id,
      sections: actor.role === 'admin' ? [] : await this.repo.sectionsOf(examId, actor.id),
      required: GradingService.required(settings),
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
        const settings = await this.settingsOf(e.id);
        const counts = await this.repo.counts(e.id, GradingService.required(settings));
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
    return { attempt, row, question, settings: await this.settingsOf(attempt.exam_id) };
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
    const state = GradingService.state(row.points, marks, GradingService.required(settings));
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
    const required = GradingService.required(settings);
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
      const score = await GradingService.sumScore(trx, attempt.id);
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
    const settings = await this.settingsOf(q.exam_id);
    const { rows, total } = await this.repo.toReconcile(
      q.exam_id,
      GradingService.required(settings),
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
    const settings = await this.settingsOf(examId);
    const questions = await this.repo.counts(examId, GradingService.required(settings));
    const sum = (k: 'total' | 'graded' | 'reconcile') => questions.reduce((n, c) => n + c[k], 0);
    return {
      total: sum('total'),
      graded: sum('graded'),
      reconcile: sum('reconcile'),
      graders: await this.repo.marksPerGrader(examId),
      questions,
    };
  }

  /**
   * Corrects the key (or rubric) of a question of one of the exam's published versions, and starts the
   * `rescore` job that re-scores every finished attempt holding it (both audited).
   */
  async changeKey(actor: StaffActor, body: ParsedBody<typeof api.gradingKey>): Promise<GradingKeyData> {
    await this.deps.access.requireFor(actor, api.gradingKey, body.exam_id);
    const q = await this.repo.publishedQuestion(body.question_id);
    if (!q || q.exam_id !== body.exam_id) {
      throw fail('not_found', `no question ${body.question_id} in a published version of exam ${body.exam_id}`);
    }
    const parsed = parseQuestion(q.kind, JSON.parse(q.content), body.key);
    if (!parsed.ok) throw fail('validation_error', `key: ${parsed.problems[0] ?? 'does not fit the question'}`);
    const key = JSON.stringify(parsed.body.key);
    await this.db.transaction().execute(async (trx) => {
      await new GradingRepository(trx).setKey(q.id, q.version_id, key);
      await this.deps.audit
        .with(trx)
        .record(
          actor,
          'grading.key',
          { kind: 'exam', id: body.exam_id },
          { question_id: q.id, key: JSON.parse(q.answer_key) as object },
          { question_id: q.id, key: parsed.body.key },
        );
    });
    this.deps.catalog.forgetVersion(q.version_id);
    const jobId = await this.deps.jobs.start(actor, 'rescore', {
      title: `Re-score question ${q.id} of exam ${body.exam_id}`,
      exam_id: body.exam_id,
      version_id: q.version_id,
      question_id: q.id,
      staff_id: actor.id,
    } satisfies RescorePayload);
    return { job_id: jobId };
  }

  /**
   * The `rescore` job: every finished attempt of the version that holds the question is scored again (its
   * per-question rows and final score), one checkpoint each; one audit entry lists the scores that changed.
   */
  async runRescore(ctx: JobContext<RescorePayload>): Promise<RescoreResult> {
    const p = ctx.payload;
    // This process may hold the version from before the correction.
    this.deps.catalog.forgetVersion(p.version_id);
    const finished = await this.repo.finishedOfVersion(p.version_id, ExamPhase.submit);
    const ids = finished
      .filter((a) => {
        const held = parseQuestionIds(a.question_ids);
        return held === null || held.includes(p.question_id);
      })
      .map((a) => a.id);
    const tally = (ctx.cursor as {
      done: number;
      changed: { id: number; before: number | null; after: number }[];
    } | null) ?? {
      done: 0,
      changed: [],
    };
    await ctx.progress(tally.done, ids.length, 'attempts');
    while (tally.done < ids.length) {
      const attempt = (await this.deps.attempts.byId(ids[tally.done]!))!;
      // Read outside the transaction (SQLite has one connection), written inside it with the cursor.
      const scored = await this.deps.attempts.score(attempt, await this.deps.attempts.bundleOf(attempt));
      const changed =
        attempt.score === scored.score
          ? tally.changed
          : [...tally.changed, { id: attempt.id, before: attempt.score, after: scored.score }];
      const next = { done: tally.done + 1, changed };
      await ctx.checkpoint(
        next,
        async (trx) => {
          await new AttemptRepository(trx).setScore(attempt.id, scored.score, scored.max);
          const grading = new GradingRepository(trx);
          await grading.replaceScores(attempt.id, scored.rows);
          await grading.keepTotals(attempt.id);
          await this.deps.outbox?.noteScore(trx, attempt.id);
        },
        { done: next.done, total: ids.length },
      );
      Object.assign(tally, next);
    }
    // Every score the correction changed is on record; a correction that changed none leaves only its own entry.
    if (tally.changed.length > 0) {
      const actor = p.staff_id !== null ? await this.deps.actorById(p.staff_id) : null;
      await this.deps.audit.record(actor, 'grading.rescore', { kind: 'exam', id: p.exam_id }, null, {
        question_id: p.question_id,
        version_id: p.version_id,
        attempts: ids.length,
        changed: tally.changed,
      });
    }
    this.deps.log.info({ exam: p.exam_id, question: p.question_id, attempts: ids.length }, 'attempts re-scored');
    return { attempts: ids.length, changed: tally.changed.length };
  }
}
