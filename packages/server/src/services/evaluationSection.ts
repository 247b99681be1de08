import {
  ExamPhase,
  candidateView,
  evaluationMax,
  scoreQuestion,
  type AnswerReceipt,
  type CepingFinishData,
  type CepingLineOrderData,
  type CepingShowData,
  type EvaluationDimension,
  type OrderListData,
} from '@examhall/contract';
import type { Db } from '../db/database.js';
import { fail } from '../errors.js';
import type { Candidate } from '../repositories/candidates.js';
import { AttemptRepository } from '../repositories/attempts.js';
import type { AnswerService } from './answers.js';
import type { AttemptService } from './attempts.js';
import type { ExamBundle } from './catalog.js';
import { storedAnswer } from './scoring.js';
import { bodyOf } from './storedQuestion.js';

/** What the evaluation section needs. */
export interface EvaluationSectionDeps {
  attempts: Pick<AttemptService, 'writable' | 'answeredIds' | 'head' | 'current' | 'bundleOf'>;
  /** Where an evaluation answer is committed, as every answer is. */
  answers: Pick<AnswerService, 'commit'>;
}

/** The evaluation section (ceping): its answer card, items, answers and the score per dimension. */
export class EvaluationSectionService {
  private readonly repo: AttemptRepository;

  constructor(
    db: Db,
    private readonly deps: EvaluationSectionDeps,
  ) {
    this.repo = new AttemptRepository(db);
  }

  /** The evaluation answer card. */
  async card(c: Candidate, examId: number): Promise<CepingLineOrderData> {
    const { attempt, bundle } = await this.deps.attempts.writable(c, examId);
    return this.cardOf(attempt.id, bundle);
  }

  private async cardOf(attemptId: number, bundle: ExamBundle): Promise<CepingLineOrderData> {
    const answered = await this.deps.attempts.answeredIds(attemptId);
    const data = bundle.evaluation.map((q, i) => ({
      id: q.id,
      order_num: i + 1,
      isAnswered: answered.has(q.id) ? (1 as const) : (0 as const),
    }));
    return { data, total: data.length };
  }

  /** The evaluation items as an order list. */
  async orderList(c: Candidate, examId: number): Promise<OrderListData> {
    const { attempt, bundle } = await this.deps.attempts.writable(c, examId);
    const card = await this.cardOf(attempt.id, bundle);
    return {
      subject_order: card.data.map((d) => ({
        ...d,
        type: bundle.byId.get(d.id)!.type,
        section: 'evaluation' as const,
      })),
    };
  }

  /** One evaluation item with its neighbours. */
  async show(c: Candidate, examId: number, subjectId: number): Promise<CepingShowData> {
    const { attempt, bundle } = await this.deps.attempts.writable(c, examId);
    const i = bundle.evaluation.findIndex((q) => q.id === subjectId);
    if (i < 0) throw fail('not_found', 'no such evaluation item in this exam');
    const q = bundle.evaluation[i]!;
    const view = candidateView(bodyOf(q));
    const stored = await this.repo.answer(attempt.id, q.id);
    const value = storedAnswer(stored?.value);
    return {
      subject: { id: q.id, order_num: i + 1, stem: view.stem, options: view.options ?? [] },
      answer: value?.kind === 'choice' ? value.option : null,
      prev_id: bundle.evaluation[i - 1]?.id ?? null,
      next_id: bundle.evaluation[i + 1]?.id ?? null,
    };
  }

  /** Answers an evaluation item. */
  async answer(
    c: Candidate,
    body: { exam_id: number; subject_id: number; option: string; client_id: string; seq: number; changed_at: number },
  ): Promise<AnswerReceipt> {
    const { attempt, bundle } = await this.deps.attempts.writable(c, body.exam_id);
    const q = bundle.byId.get(body.subject_id);
    if (!q || q.section !== 'evaluation') throw fail('not_found', 'no such evaluation item in this exam');
    return this.deps.answers.commit(attempt.id, q, { ...body, answer: { kind: 'choice', option: body.option } });
  }

  /** Scores each dimension of the evaluation from the answers so far. */
  async finish(c: Candidate, examId: number): Promise<CepingFinishData> {
    await this.deps.attempts.head(examId);
    const attempt = await this.deps.attempts.current(c, examId);
    if (!attempt || attempt.phase === ExamPhase.monitor) throw fail('exam_not_started');
    const bundle = await this.deps.attempts.bundleOf(attempt);
    return { dimensions: await this.profile(attempt.id, bundle) };
  }

  /**
   * The evaluation profile of an attempt: per dimension, the answered items' points out of the most its items can
   * add up to, and how many of them were answered; null when the exam has no evaluation section.
   */
  async profileOf(attemptId: number, bundle: ExamBundle): Promise<EvaluationDimension[] | null> {
    return bundle.evaluation.length === 0 ? null : this.profile(attemptId, bundle);
  }

  private async profile(attemptId: number, bundle: ExamBundle): Promise<EvaluationDimension[]> {
    const answers = new Map((await this.repo.answers(attemptId)).map((a) => [a.question_id, a.value]));
    const dims = new Map<string, EvaluationDimension>();
    for (const q of bundle.evaluation) {
      // An item whose stored row no longer parses has no dimension to add to; the others still count.
      if (q.body?.kind !== 'evaluation') continue;
      const dimension = q.body.content.dimension;
      const d = dims.get(dimension) ?? { dimension, score: 0, max: 0, answered: 0, items: 0 };
      const answer = storedAnswer(answers.get(q.id));
      d.items += 1;
      d.max += evaluationMax(q.body.key);
      if (answer) {
        d.answered += 1;
        d.score += scoreQuestion(q.body, answer, q.score) ?? 0;
      }
      dims.set(dimension, d);
    }
    return [...dims.values()];
  }
}
