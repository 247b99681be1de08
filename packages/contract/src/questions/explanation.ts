/**
 * A question's explanation (解析) and its feedback per option: part of every kind, kept beside the typed body (never
 * in its content, which candidates see while they answer, nor in its key). Candidates read it after submitting,
 * where their exam allows it.
 */
import { z } from 'zod';
import { report, RICH_TEXT_MAX, type IssueSink } from './common.js';

/** An explanation's or a feedback's text (sanitized HTML; '' for none). */
export const ExplanationText = z.string().max(RICH_TEXT_MAX, 'the explanation is too long');

/**
 * Whose option a feedback is for: an option id of the question ('A'), or of one of its sub-questions, the sub's id
 * first ('2.A').
 */
export const FeedbackTarget = z
  .string()
  .regex(/^(?:[1-9]\d{0,2}\.)?[A-H]$/, "feedback is for an option: 'A' to 'H', or a sub-question's as '2.A'");

/** The explanation of a question and its feedback per option. */
export const QuestionExplanation = z.object({
  /** The explanation (sanitized HTML; '' for none). */
  text: ExplanationText.default(''),
  /** Feedback per option ('A', or '2.A' for sub-question 2's option A), shown beside that option. */
  options: z.record(FeedbackTarget, ExplanationText).default({}),
});
/** The explanation of a question and its feedback per option. */
export type QuestionExplanation = z.infer<typeof QuestionExplanation>;
/** An explanation as an editor or a file sends it (defaults not yet applied). */
export type QuestionExplanationInput = z.input<typeof QuestionExplanation>;

/** The options a body's feedback may name: its own ('A') and its sub-questions' ('2.A'). */
export function feedbackTargets(content: unknown): string[] {
  const ids = (options: unknown, prefix: string): string[] =>
    Array.isArray(options)
      ? options.flatMap((o: unknown) => {
          const id = (o as { id?: unknown } | null)?.id;
          return typeof id === 'string' ? [`${prefix}${id}`] : [];
        })
      : [];
  const c = (content ?? {}) as { options?: unknown; subs?: unknown };
  const subs = Array.isArray(c.subs) ? c.subs : [];
  return [
    ...ids(c.options, ''),
    ...subs.flatMap((s: unknown) => {
      const sub = (s ?? {}) as { id?: unknown; options?: unknown };
      return typeof sub.id === 'number' ? ids(sub.options, `${sub.id}.`) : [];
    }),
  ];
}

/** Checks that every feedback names an option of the question (reported at `options.<target>`). */
export function checkFeedback(
  ctx: IssueSink,
  content: unknown,
  explanation: { options: Readonly<Record<string, string>> },
  path: (string | number)[] = [],
): void {
  const targets = new Set(feedbackTargets(content));
  for (const target of Object.keys(explanation.options)) {
    if (!targets.has(target)) report(ctx, [...path, 'options', target], `there is no option ${target}`);
  }
}

/** True when an explanation says anything (a text or a feedback that is not blank). */
export function hasExplanation(e: QuestionExplanation | null | undefined): e is QuestionExplanation {
  if (!e) return false;
  return e.text.trim() !== '' || Object.values(e.options).some((t) => t.trim() !== '');
}

/** An explanation without blank parts, or null when nothing is left (what the bank stores). */
export function trimmedExplanation(e: QuestionExplanation | null | undefined): QuestionExplanation | null {
  if (!hasExplanation(e)) return null;
  const options = Object.fromEntries(Object.entries(e.options).filter(([, t]) => t.trim() !== ''));
  return { text: e.text.trim() === '' ? '' : e.text, options };
}

/** Why an explanation's feedback does not fit a question's content (`explanation.options.X: ...`), or null. */
export function explanationProblem(content: unknown, e: { options: Readonly<Record<string, string>> }): string | null {
  const problems: string[] = [];
  checkFeedback({ addIssue: (i) => problems.push(`explanation.${i.path.join('.')}: ${i.message}`) }, content, e);
  return problems[0] ?? null;
}
