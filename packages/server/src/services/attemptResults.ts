import {
  candidateView,
  ExamMode,
  ExamPhase,
  explanationsShown,
  type ExamResult,
  type ExplainedQuestion,
  type ExplanationsData,
} from '@examhall/contract';
import type { Db } from '../db/database.js';
import { fail } from '../errors.js';
import { AttemptRepository, type AttemptRow } from '../repositories/attempts.js';
import { ExamVersionRepository } from '../repositories/examVersions.js';
import type { Candidate } from '../repositories/candidates.js';
import { GradingRepository } from '../repositories/grading.js';
import type { AttemptService } from './attempts.js';
import type { ExamBundle } from './catalog.js';
import type { EvaluationSectionService } from './evaluationSection.js';
import { visibleOutcome } from './outcome.js';
import { storedExplanation } from './questionBody.js';
import { gradedByPerson, storedAnswer } from './scoring.js';

/** What submitting and results need. */
export interface AttemptResultDeps {
  /** The candidate's attempt, finishing it, what it ran on and what it answered. */
  attempts: Pick<AttemptService, 'started' | 'finish' | 'finished' | 'bundleOf' | 'answeredIds' | 'view'>;
  /** The evaluation profile, shown with the result whenever it is opened. */
  evaluation: Pick<EvaluationSectionService, 'profileOf'>;
}

/** The candidate handing in their attempt, and their result as far as the exam shows it. */
export class AttemptResultService {
  constructor(
    private readonly db: Db,
    private readonly deps: AttemptResultDeps,
  ) {}

  /** Submits the candidate's attempt (idempotent: a finished attempt answers its result again). */
  async submit(c: Candidate, examId: number): Promise<ExamResult> {
    const { attempts } = this.deps;
    const attempt = await attempts.started(c, examId);
    const finished = attempt.phase === ExamPhase.submit ? attempt : await attempts.finish(attempt.id, 'submit');
    return this.result(finished, await attempts.bundleOf(finished));
  }

  /** The result of the candidate's finished attempt. */
  async resultOf(c: Candidate, examId: number): Promise<ExamResult> {
    const { attempt, bundle } = await this.deps.attempts.finished(c, examId);
    return this.result(attempt, bundle);
  }

  /**
   * The explanations and feedback of the questions of the candidate's submitted attempt, with the options they chose:
   * only once it is submitted (`exam_not_finished`) and where its exam shows them (`explanations_hidden`). Read from
   * the version's frozen copies when asked, never with the questions an attempt runs on.
   */
  async explanations(c: Candidate, examId: number): Promise<ExplanationsData> {
    const { attempt, bundle } = await this.deps.attempts.finished(c, examId);
    if (!this.shown(bundle)) throw fail('explanations_hidden');
    const questions = [...bundle.ordered, ...bundle.evaluation];
    const stored = await new ExamVersionRepository(this.db).explanationsOf(questions.map((q) => q.id));
    const answers = new Map(
      (await new AttemptRepository(this.db).answers(attempt.id)).map((a) => [a.question_id, storedAnswer(a.value)]),
    );
    const list: ExplainedQuestion[] = [];
    questions.forEach((q, i) => {
      const explanation = storedExplanation(stored.get(q.id));
      if (!explanation || !q.body) return;
      const view = candidateView(q.body);
      const answer = answers.get(q.id);
      const chosen = answer?.kind === 'choice' ? [answer.option] : answer?.kind === 'multi' ? answer.options : [];
      list.push({
        id: q.id,
        type: q.type,
        order_num: i + 1,
        stem: view.stem,
        ...(view.options ? { options: view.options, chosen } : {}),
        explanation,
      });
    });
    return { list };
  }

  /**
   * Whether the candidates of an attempt's exam read the explanations after submitting; a staff member's preview
   * always does, so that the author sees what candidates will.
   */
  private shown(bundle: ExamBundle): boolean {
    if (bundle.version.preview) return true;
    return bundle.version.definition ? explanationsShown(bundle.version.definition) : false;
  }

  /** The result as the candidate sees it: the score and whether they passed only as far as the exam shows them. */
  private async result(attempt: AttemptRow, bundle: ExamBundle): Promise<ExamResult> {
    const answered = await this.deps.attempts.answeredIds(attempt.id);
    // Evaluation items count as questions here as on the exam page's card and submit dialog.
    const everyQuestion = [...bundle.ordered, ...bundle.evaluation];
    const rows = await new GradingRepository(this.db).scoresOf(attempt.id);
    // An attempt finished before per-question rows existed waits for every grader question.
    const pendingManual =
      rows.length > 0
        ? rows.filter((r) => r.source === 'manual' && r.points === null).length
        : bundle.ordered.filter(gradedByPerson).length;
    return {
      attempt: this.deps.attempts.view(attempt, bundle),
      ...visibleOutcome(bundle.version.definition, {
        score: attempt.score ?? 0,
        max: attempt.max_score ?? 0,
        fullMax: bundle.ordered.reduce((sum, q) => sum + q.score, 0),
        pending: pendingManual > 0,
      }),
      answered: everyQuestion.filter((q) => answered.has(q.id)).length,
      total: everyQuestion.length,
      pending_manual: pendingManual,
      practice: attempt.mode === ExamMode.simulate,
      evaluation: await this.deps.evaluation.profileOf(attempt.id, bundle),
      explanations: this.shown(bundle),
    };
  }
}
