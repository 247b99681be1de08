/** What candidates are told of a finished attempt: the exam's show_score and passing rule applied to its points. */
import type { ExamDefinition, ExamResult, PassingRule } from '@examhall/contract';

/** What an exam tells candidates of their outcome: 'score', 'pass' or 'none'. */
export type ShowScore = ExamResult['show_score'];

/** The score fields of a result as the candidate may see them. */
export type VisibleOutcome = Pick<ExamResult, 'show_score' | 'score' | 'max_score' | 'passed'>;

/**
 * What the exam tells candidates. An exam with no readable definition (none frozen, or one that no longer
 * parses) keeps the definition's default, the score, as every exam did before the setting existed.
 */
export function showScoreOf(definition: ExamDefinition | null): ShowScore {
  return definition?.show_score ?? 'score';
}

/**
 * Whether `score` clears the rule: true or false once every point is known. While answers wait for a grader
 * only a pass already reached is certain (grading adds points, it never takes automatic ones away), so
 * anything short of the bar is null, undecided. A percentage is of the exam's whole maximum, the points
 * graders give included. No rule: null.
 */
export function passedBy(rule: PassingRule, score: number, fullMax: number, pending: boolean): boolean | null {
  if (rule.kind === 'none') return null;
  const bar = rule.kind === 'points' ? rule.min_points : (rule.min_percent / 100) * fullMax;
  // Scores are kept to hundredths and 60 % of 7 is 4.1999999999999993 in floating point: compare with slack.
  if (score >= bar - 1e-9) return true;
  return pending ? null : false;
}

/**
 * The score fields of a result as the exam lets the candidate see them: 'score' answers the points and
 * whether they pass, 'pass' only whether they pass, 'none' neither (the organiser tells them later).
 */
export function visibleOutcome(
  definition: ExamDefinition | null,
  points: {
    /** Points from automatically scored questions. */
    score: number;
    /** Points those questions are worth. */
    max: number;
    /** Points of every scored question of the attempt, those graders score included. */
    fullMax: number;
    /** True while some answers wait for a grader. */
    pending: boolean;
  },
): VisibleOutcome {
  const show = showScoreOf(definition);
  const rule = definition?.passing ?? { kind: 'none' };
  return {
    show_score: show,
    score: show === 'score' ? points.score : null,
    max_score: show === 'score' ? points.max : null,
    passed: show === 'none' ? null : passedBy(rule, points.score, points.fullMax, points.pending),
  };
}
