import {
  candidateView,
  KINDS,
  type OrderListData,
  type QuestionOf,
  type ShowNewData,
  type ShowSectionData,
  type Subject,
} from '@examhall/contract';
import type { Db } from '../db/database.js';
import { fail } from '../errors.js';
import type { Candidate } from '../repositories/candidates.js';
import { AttemptRepository, type AnswerRow } from '../repositories/attempts.js';
import type { AttemptService } from './attempts.js';
import type { CatalogQuestion, ExamBundle } from './catalog.js';
import { optionOrder } from './draw.js';
import { bodyOf } from './storedQuestion.js';

/**
 * The question as the candidate sees it: its kind's candidate view (never a key field) with its place in the
 * exam; question_invalid when its stored row no longer parses.
 */
export function publicSubject(q: CatalogQuestion, orderNum: number): Subject {
  return {
    ...candidateView(bodyOf(q)),
    id: q.id,
    type: q.type,
    order_num: orderNum,
    score: q.score,
    section: q.section,
  };
}

/** What the question calls need. */
export interface ExamQuestionDeps {
  attempts: Pick<AttemptService, 'writable' | 'answeredIds'>;
  clock: () => number;
}

/** A running attempt's questions as the candidate sees them, with their stored answers, and listening audio plays. */
export class ExamQuestionService {
  private readonly repo: AttemptRepository;

  constructor(
    db: Db,
    private readonly deps: ExamQuestionDeps,
  ) {
    this.repo = new AttemptRepository(db);
  }

  /** The linetest and major questions in display order with their answered flags. */
  async orderList(c: Candidate, examId: number): Promise<OrderListData> {
    const { attempt, bundle } = await this.deps.attempts.writable(c, examId);
    const answered = await this.deps.attempts.answeredIds(attempt.id);
    return {
      subject_order: bundle.ordered.map((q, i) => ({
        id: q.id,
        type: q.type,
        order_num: i + 1,
        isAnswered: answered.has(q.id) ? 1 : 0,
        section: q.section,
      })),
    };
  }

  /** One question without its key, and the stored answer. */
  async showNew(c: Candidate, examId: number, subjectId: number): Promise<ShowNewData> {
    const { attempt, bundle } = await this.deps.attempts.writable(c, examId);
    const index = bundle.ordered.findIndex((q) => q.id === subjectId);
    if (index < 0) throw fail('not_found', 'no such question in this exam');
    return this.shown(attempt.id, bundle, index, await this.repo.answer(attempt.id, subjectId));
  }

  /**
   * A section's questions as {@link showNew} answers each, with one read of the attempt's answers: the exam
   * page loads a section in one call. A question whose stored row no longer parses is left out and named.
   */
  async showSection(c: Candidate, examId: number, section: 'linetest' | 'major'): Promise<ShowSectionData> {
    const { attempt, bundle } = await this.deps.attempts.writable(c, examId);
    const answers = new Map((await this.repo.answers(attempt.id)).map((a) => [a.question_id, a]));
    const list: ShowNewData[] = [];
    const invalid: number[] = [];
    bundle.ordered.forEach((q, index) => {
      if (q.section !== section) return;
      if (!q.body) invalid.push(q.id);
      else list.push(this.shown(attempt.id, bundle, index, answers.get(q.id)));
    });
    return { list, invalid };
  }

  /** The question at `index` of the attempt's order as the candidate sees it, with their stored answer. */
  private shown(attemptId: number, bundle: ExamBundle, index: number, stored: AnswerRow | undefined): ShowNewData {
    const q = bundle.ordered[index]!;
    const subject = publicSubject(q, index + 1);
    // An exam that shuffles options shows each candidate their own order (ids unchanged: answers are not).
    if (bundle.version.definition?.shuffle_options && subject.options && q.kind && KINDS.shuffled.has(q.kind))
      subject.options = optionOrder(subject.options, `${attemptId}:${q.id}`);
    return {
      subject,
      answer: stored
        ? { value: JSON.parse(stored.value), version: stored.version, seq: stored.seq, saved_at: stored.saved_at }
        : null,
    };
  }

  /** Listening audio: plays used and allowed. */
  async audioInfo(c: Candidate, examId: number, subjectId: number) {
    const { attempt, bundle } = await this.deps.attempts.writable(c, examId);
    const q = this.listening(bundle, subjectId);
    return { attempt, q, plays: await this.repo.plays(attempt.id, q.id) };
  }

  /** Counts one play, refusing past the limit; the server is the only judge of the count. */
  async audioPlay(c: Candidate, examId: number, subjectId: number) {
    const { attempt, bundle } = await this.deps.attempts.writable(c, examId);
    const q = this.listening(bundle, subjectId);
    const plays = await this.repo.addPlay(attempt.id, q.id, q.content.audio.play_limit, this.deps.clock());
    if (plays === null) throw fail('play_limit_reached');
    return { attempt, q, plays };
  }

  /** A listening question of the attempt as its typed body (with its id), or not_found / question_invalid. */
  private listening(bundle: ExamBundle, subjectId: number): QuestionOf<'listening'> & { id: number } {
    const q = bundle.byId.get(subjectId);
    if (!q || q.kind !== 'listening') throw fail('not_found', 'no such listening question in this exam');
    const body = bodyOf(q);
    if (body.kind !== 'listening') throw fail('not_found', 'no such listening question in this exam');
    return { ...body, id: q.id };
  }
}
