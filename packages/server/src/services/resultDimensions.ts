import { api, evaluationMax, scoreQuestion, type DimensionReportData } from '@examhall/contract';
import type { Db } from '../db/database.js';
import { ResultsRepository } from '../repositories/results.js';
import type { AccessService, StaffActor } from './access.js';
import { parseQuestionIds, type CatalogQuestion, type ExamCatalog, type VersionBundle } from './catalog.js';
import { roundPoints, storedAnswer } from './scoring.js';

/** The evaluation's dimensions of one attempt: option points added per dimension, as /ceping/exam-finish does. */
export function dimensionsOf(
  items: readonly CatalogQuestion[],
  answers: Map<number, ReturnType<typeof storedAnswer>>,
): { dimension: string; score: number; max: number }[] {
  const dims = new Map<string, { score: number; max: number }>();
  for (const q of items) {
    // An item whose stored row no longer parses has no dimension to add to.
    if (q.body?.kind !== 'evaluation') continue;
    const d = dims.get(q.body.content.dimension) ?? { score: 0, max: 0 };
    d.max += evaluationMax(q.body.key);
    d.score += scoreQuestion(q.body, answers.get(q.id) ?? null, q.score) ?? 0;
    dims.set(q.body.content.dimension, d);
  }
  return [...dims].map(([dimension, d]) => ({ dimension, score: roundPoints(d.score), max: roundPoints(d.max) }));
}

/** The evaluation section's dimensions over an exam's finished attempts (one attempt's: the results report). */
export class DimensionReportService {
  private readonly repo: ResultsRepository;

  constructor(
    db: Db,
    private readonly deps: { access: AccessService; catalog: ExamCatalog },
  ) {
    this.repo = new ResultsRepository(db);
  }

  /** The evaluation section's dimensions over the exam's finished attempts. */
  async dimensions(actor: StaffActor, examId: number): Promise<DimensionReportData> {
    await this.deps.access.requireFor(actor, api.resultsDimensions, examId);
    const attempts = await this.repo.finishedAttempts(examId);
    const versions = new Map<number, VersionBundle | null>();
    const itemsOf = new Map<number, CatalogQuestion[]>();
    for (const a of attempts) {
      if (a.version_id === null || versions.has(a.version_id)) continue;
      const v = await this.deps.catalog.version(a.version_id);
      versions.set(a.version_id, v);
      itemsOf.set(a.version_id, v ? [...v.byId.values()].filter((q) => q.section === 'evaluation') : []);
    }
    const allItems = [...itemsOf.values()].flat();
    const answers = new Map<number, Map<number, ReturnType<typeof storedAnswer>>>();
    for (const r of await this.repo.answersTo(
      examId,
      allItems.map((q) => q.id),
    )) {
      const m = answers.get(r.attempt_id) ?? new Map<number, ReturnType<typeof storedAnswer>>();
      m.set(r.question_id, storedAnswer(r.value));
      answers.set(r.attempt_id, m);
    }
    const perDimension = new Map<string, { scores: number[]; max: number }>();
    let counted = 0;
    for (const a of attempts) {
      const given = parseQuestionIds(a.question_ids);
      const items = (a.version_id === null ? [] : (itemsOf.get(a.version_id) ?? [])).filter(
        (q) => given === null || given.includes(q.id),
      );
      if (items.length === 0) continue;
      counted += 1;
      for (const d of dimensionsOf(items, answers.get(a.id) ?? new Map())) {
        const entry = perDimension.get(d.dimension) ?? { scores: [], max: 0 };
        entry.scores.push(d.score);
        entry.max = Math.max(entry.max, d.max);
        perDimension.set(d.dimension, entry);
      }
    }
    return {
      attempts: counted,
      dimensions: [...perDimension].map(([dimension, d]) => {
        const bands = [0, 0, 0, 0, 0];
        for (const s of d.scores) {
          const i = d.max > 0 ? Math.min(4, Math.floor((s / d.max) * 5)) : 0;
          bands[i]! += 1;
        }
        return {
          dimension,
          mean: roundPoints(d.scores.reduce((a, b) => a + b, 0) / d.scores.length),
          min: Math.min(...d.scores),
          max_seen: Math.max(...d.scores),
          max: d.max,
          bands,
        };
      }),
    };
  }
}
