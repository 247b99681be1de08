/** What the result page shows of a finished attempt's outcome, and which pledge the signature step shows. */
import type { ExamDetail, ExamResult } from '@examhall/contract';

/**
 * The outcome as the result page shows it: the score (with passed or not when the exam has a passing rule),
 * only passed or not, a note that the organiser tells the result later, or nothing (an exam with no
 * automatically scored points that shows scores, as before the setting existed).
 */
export type ShownOutcome =
  | { kind: 'score'; score: number; max: number; passed: boolean | null }
  | { kind: 'pass'; passed: boolean }
  | { kind: 'later' }
  | { kind: 'nothing' };

/** What of the outcome the page shows; it follows the server, which leaves out what the exam hides. */
export function shownOutcome(r: Pick<ExamResult, 'show_score' | 'score' | 'max_score' | 'passed'>): ShownOutcome {
  if (r.show_score === 'score' && r.score !== null && r.max_score !== null && r.max_score > 0) {
    return { kind: 'score', score: r.score, max: r.max_score, passed: r.passed };
  }
  // 'pass' with no decision yet (no rule, or answers waiting for a grader) is told later, like 'none'.
  if (r.show_score !== 'none' && r.passed !== null) return { kind: 'pass', passed: r.passed };
  return r.show_score === 'score' ? { kind: 'nothing' } : { kind: 'later' };
}

/** The exam's own pledge, or null for the standard one (none set, or a detail cached before pledges existed). */
export function ownPledge(detail: Pick<ExamDetail, 'pledge'>): string | null {
  const text = detail.pledge as string | undefined;
  return text !== undefined && text.trim() !== '' ? text : null;
}
