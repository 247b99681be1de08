import { ExamSettings, QUESTION_TYPE_DISPLAY_ORDER, type QuestionType, type Section } from '@examhall/contract';
import type { Db } from '../db/database.js';
import { ExamRepository, type ExamRow } from '../repositories/exams.js';
import type { AnswerKey, QuestionContent } from './scoring.js';

/** A question with its content and key parsed. */
export interface CatalogQuestion {
  id: number;
  type: QuestionType;
  order_num: number;
  score: number;
  section: Section;
  content: QuestionContent;
  key: AnswerKey;
}

/** An exam with its settings, sections and questions, as the candidate-facing services need it. */
export interface ExamBundle {
  exam: ExamRow;
  settings: ExamSettings;
  /** Question counts per section. */
  countNum: Record<Section, number>;
  /** Questions of the linetest and major sections in display order (seed point 9). */
  ordered: CatalogQuestion[];
  /** Evaluation items in order. */
  evaluation: CatalogQuestion[];
  byId: Map<number, CatalogQuestion>;
}

/** Position of a type in the display order. */
const typeRank = (t: number) => QUESTION_TYPE_DISPLAY_ORDER.indexOf(t as QuestionType);

/**
 * Exams as read by candidates, kept for a few seconds per process: every answer save needs its question,
 * and exams do not change while they run. Any process may serve any request; a change reaches all of
 * them within the time-to-live.
 */
export class ExamCatalog {
  private readonly cache = new Map<number, { at: number; bundle: Promise<ExamBundle | null> }>();
  private readonly repo: ExamRepository;

  constructor(
    db: Db,
    private readonly clock: () => number,
    private readonly ttlMs = 10_000,
  ) {
    this.repo = new ExamRepository(db);
  }

  /** The exam, or null when there is none. */
  get(examId: number): Promise<ExamBundle | null> {
    const now = this.clock();
    const hit = this.cache.get(examId);
    if (hit && now - hit.at < this.ttlMs) return hit.bundle;
    const bundle = this.load(examId);
    this.cache.set(examId, { at: now, bundle });
    bundle.catch(() => this.cache.delete(examId));
    return bundle;
  }

  private async load(examId: number): Promise<ExamBundle | null> {
    const exam = await this.repo.byId(examId);
    if (!exam) return null;
    const [sections, rows] = await Promise.all([this.repo.sectionsOf(examId), this.repo.questionsOf(examId)]);
    const sectionOf = new Map(sections.map((s) => [s.id, s]));
    const questions = rows.map((r): CatalogQuestion => ({
      id: r.id,
      type: r.type as QuestionType,
      order_num: r.order_num,
      score: r.score,
      section: (sectionOf.get(r.section_id)?.kind ?? 'linetest') as Section,
      content: JSON.parse(r.content) as QuestionContent,
      key: JSON.parse(r.answer_key) as AnswerKey,
    }));
    const sectionOrder = new Map(rows.map((r) => [r.id, sectionOf.get(r.section_id)?.order_num ?? 0]));
    const sectionRank = (q: CatalogQuestion) => sectionOrder.get(q.id) ?? 0;
    const ordered = questions
      .filter((q) => q.section !== 'evaluation')
      .sort(
        (a, b) => typeRank(a.type) - typeRank(b.type) || sectionRank(a) - sectionRank(b) || a.order_num - b.order_num,
      );
    const evaluation = questions.filter((q) => q.section === 'evaluation').sort((a, b) => a.order_num - b.order_num);
    const countNum = { linetest: 0, major: 0, evaluation: 0 };
    for (const q of questions) countNum[q.section] += 1;
    return {
      exam,
      settings: ExamSettings.parse(JSON.parse(exam.settings)),
      countNum,
      ordered,
      evaluation,
      byId: new Map(questions.map((q) => [q.id, q])),
    };
  }
}
