import { AnswerValue, judgedScore, QUESTION_REGISTRY, scoreQuestion, type GradingSettings } from '@examhall/contract';
import type { CatalogQuestion } from './catalog.js';

/**
 * The server's side of scoring: the rules per kind live in the contract's QUESTION_REGISTRY; this adds what
 * only the server knows (stored answers and judged submits) and what a question that no longer parses earns.
 */

/** True when a grader scores the question (Q&A, programming Q&A): not in the automatic score nor its max. */
export function gradedByPerson(q: CatalogQuestion): boolean {
  return q.kind !== null && QUESTION_REGISTRY[q.kind].scoring === 'grader';
}

/** A stored answer value (JSON text), or null when there is none or it does not parse any more. */
export function storedAnswer(json: string | null | undefined): AnswerValue | null {
  if (json === null || json === undefined) return null;
  try {
    const parsed = AnswerValue.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * Points of one automatically scored question: from its answer by its kind's rule, a programming question
 * from its latest judged submit. A question whose stored row no longer parses earns nothing (its points
 * still count in the maximum), so that finishing an attempt never fails on it.
 */
export function automaticPoints(
  q: CatalogQuestion,
  answer: AnswerValue | null,
  submit: { passed: number | null; total: number } | undefined,
): number {
  if (!q.body) return 0;
  if (QUESTION_REGISTRY[q.body.kind].scoring === 'judge') return judgedScore(q.score, submit);
  return scoreQuestion(q.body, answer, q.score) ?? 0;
}

/** Where a question's points come from: its kind's rule, the judge, or graders. */
export type ScoreSource = 'auto' | 'judge' | 'manual';

/** The source of a question's points. */
export function scoreSource(q: CatalogQuestion): ScoreSource {
  if (gradedByPerson(q)) return 'manual';
  return q.body && QUESTION_REGISTRY[q.body.kind].scoring === 'judge' ? 'judge' : 'auto';
}

/** Rounds points to hundredths, as scores are kept. */
export function roundPoints(n: number): number {
  return Math.round(n * 100) / 100;
}

/** A mark as deciding an answer's points needs it. */
export interface DecidingMark {
  total: number;
  reconciling: boolean;
}

/**
 * The final points of an answer graders score, or null while it waits: a reconciling mark decides; with one
 * grader the mark; with double marking the mean of two marks no further apart than the margin (two further
 * apart wait for a reconciling mark). Never more than the question's points.
 */
export function manualFinal(marks: readonly DecidingMark[], settings: GradingSettings, max: number): number | null {
  const cap = (n: number) => roundPoints(Math.min(n, max));
  const reconciling = marks.find((m) => m.reconciling);
  if (reconciling) return cap(reconciling.total);
  const plain = marks.filter((m) => !m.reconciling);
  if (!settings.double_marking) return plain[0] ? cap(plain[0].total) : null;
  const [a, b] = plain;
  if (!a || !b) return null;
  // Scores are kept to hundredths: compare with slack so that a difference of exactly the margin agrees.
  if (Math.abs(a.total - b.total) > settings.margin + 1e-9) return null;
  return cap((a.total + b.total) / 2);
}
