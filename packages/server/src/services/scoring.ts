import { AnswerValue, judgedScore, QUESTION_REGISTRY, scoreQuestion } from '@examhall/contract';
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
