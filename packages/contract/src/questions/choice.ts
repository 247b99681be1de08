import { z } from 'zod';
import type { QuestionType } from '../enums.js';
import type { AnswerValue } from '../schemas/answer.js';
import {
  checkOptionExists,
  checkOptionScores,
  ChoiceOptions,
  OptionIdField,
  optionList,
  OptionScores,
  round2,
  StemField,
  viewOptions,
  wrongAnswerKind,
  type KindResponses,
  type QuestionSpec,
} from './common.js';

/** Content of a choice question (single, multiple, indefinite, gradient): a stem and 2-8 options. */
export const ChoiceContent = z.object({
  /** The question text (sanitized HTML). */
  stem: StemField,
  /** The options, 2 to 8, ids 'A'..'H' unique. */
  options: ChoiceOptions,
});
/** Content of a choice question. */
export type ChoiceContent = z.infer<typeof ChoiceContent>;

/** Content of a true/false question: exactly two options (true first by convention). */
export const TrueFalseContent = z.object({
  /** The statement (sanitized HTML). */
  stem: StemField,
  /** Exactly two options. */
  options: optionList(2, 2),
});
/** Content of a true/false question. */
export type TrueFalseContent = z.infer<typeof TrueFalseContent>;

/** Key of a one-pick question (single, true/false): the right option. */
export const OneOptionKey = z.object({
  /** The right option's id. */
  option: OptionIdField,
});
/** Key of a one-pick question. */
export type OneOptionKey = z.infer<typeof OneOptionKey>;

/** Key of a several-picks question: the set of right options, each once. */
function manyOptionKey(min: number) {
  return z.object({
    /** The right options' ids. */
    options: z
      .array(OptionIdField)
      .min(min, min === 1 ? 'choose at least one right option' : `choose at least ${min} right options`)
      .superRefine((ids, ctx) => {
        ids.forEach((id, i) => {
          if (ids.indexOf(id) !== i)
            ctx.addIssue({ code: 'custom', message: `option ${id} is listed twice`, path: [i] });
        });
      }),
  });
}

/** Key of a multiple-choice question: at least two right options. */
export const MultipleKey = manyOptionKey(2);
/** Key of a multiple-choice question. */
export type MultipleKey = z.infer<typeof MultipleKey>;
/** Key of an indefinite-choice question: at least one right option. */
export const IndefiniteKey = manyOptionKey(1);
/** Key of an indefinite-choice question. */
export type IndefiniteKey = z.infer<typeof IndefiniteKey>;

/** Key of a gradient question: points for every option. */
export const GradientKey = z.object({
  /** Points per option id; the best option earns the question's points. */
  scores: OptionScores,
});
/** Key of a gradient question. */
export type GradientKey = z.infer<typeof GradientKey>;

/** A single-choice question. */
export const SingleBody = z
  .object({ kind: z.literal('single'), content: ChoiceContent, key: OneOptionKey })
  .superRefine((b, ctx) => checkOptionExists(ctx, b.content.options, b.key.option, ['key', 'option']));

/** A true/false question. */
export const TrueFalseBody = z
  .object({ kind: z.literal('true_false'), content: TrueFalseContent, key: OneOptionKey })
  .superRefine((b, ctx) => checkOptionExists(ctx, b.content.options, b.key.option, ['key', 'option']));

/** A multiple-choice question. */
export const MultipleBody = z
  .object({ kind: z.literal('multiple'), content: ChoiceContent, key: MultipleKey })
  .superRefine((b, ctx) =>
    b.key.options.forEach((id, i) => checkOptionExists(ctx, b.content.options, id, ['key', 'options', i])),
  );

/** An indefinite-choice question (one or more right options). */
export const IndefiniteBody = z
  .object({ kind: z.literal('indefinite'), content: ChoiceContent, key: IndefiniteKey })
  .superRefine((b, ctx) =>
    b.key.options.forEach((id, i) => checkOptionExists(ctx, b.content.options, id, ['key', 'options', i])),
  );

/** A gradient question: every option earns some points. */
export const GradientBody = z
  .object({ kind: z.literal('gradient'), content: ChoiceContent, key: GradientKey })
  .superRefine((b, ctx) => checkOptionScores(ctx, b.content.options, b.key.scores, ['key', 'scores']));

/** Why a one-pick answer does not fit the options, or null. */
export function oneOptionProblem(kind: string, options: readonly { id: string }[], value: AnswerValue): string | null {
  const wrong = wrongAnswerKind(kind, 'choice', value);
  if (wrong || value.kind !== 'choice') return wrong;
  return options.some((o) => o.id === value.option) ? null : 'answer.option: no such option';
}

/** Why a several-picks answer does not fit the options, or null. */
export function manyOptionsProblem(
  kind: string,
  options: readonly { id: string }[],
  value: AnswerValue,
): string | null {
  const wrong = wrongAnswerKind(kind, 'multi', value);
  if (wrong || value.kind !== 'multi') return wrong;
  if (new Set(value.options).size !== value.options.length) return 'answer.options: an option is chosen twice';
  const ids = new Set(options.map((o) => o.id));
  return value.options.every((o) => ids.has(o)) ? null : 'answer.options: no such option';
}

/** The one right option earns all points. */
export function scoreOne(key: OneOptionKey, value: AnswerValue | null, points: number): number {
  return value?.kind === 'choice' && value.option === key.option ? points : 0;
}

/**
 * The exact set earns all points; a non-empty subset of the right options with no wrong one earns half;
 * any wrong option earns nothing.
 */
export function scoreMany(key: { options: string[] }, value: AnswerValue | null, points: number): number {
  if (value?.kind !== 'multi') return 0;
  const chosen = new Set(value.options);
  const right = new Set(key.options);
  if (chosen.size === 0 || [...chosen].some((o) => !right.has(o))) return 0;
  return chosen.size === right.size ? points : round2(points / 2);
}

/** The chosen option's points, scaled so that the best option earns the question's points. */
export function scoreGradient(key: GradientKey, value: AnswerValue | null, points: number): number {
  if (value?.kind !== 'choice') return 0;
  const best = Math.max(0, ...Object.values(key.scores));
  const got = key.scores[value.option] ?? 0;
  return best > 0 ? round2((got / best) * points) : 0;
}

/** What candidates see of a choice question: its stem and options. */
export const choiceView = (c: ChoiceContent | TrueFalseContent) => ({ stem: c.stem, options: viewOptions(c.options) });

/** Item analysis of a choice question: its options, those in `right` counted as the key. */
export function optionResponses(options: readonly { id: string }[], right: Iterable<string>): KindResponses {
  return { ids: options.map((o) => o.id), key: new Set(right) };
}

/** The options with the most points (a gradient or evaluation key's best answers). */
export function bestOptions(scores: Readonly<Record<string, number>>): string[] {
  const best = Math.max(...Object.values(scores));
  return Object.entries(scores).flatMap(([id, p]) => (p === best ? [id] : []));
}

/** What sets apart the kinds of the several-picks family (multiple, indefinite): the rest is the family's. */
export interface ManyPicksFacts<T extends QuestionType> {
  type: T;
  label: { readonly 'zh-CN': string; readonly 'en-US': string };
  displayOrder: number;
  /** The key: how many right options it needs. */
  key: typeof MultipleKey;
}

/**
 * A kind of the several-picks family: options that shuffle, a set of right ones, the exact set earning all points
 * and a right subset half (scoreMany); it may be a sub-question.
 */
export function manyPicksKind<K extends string, T extends QuestionType>(kind: K, facts: ManyPicksFacts<T>) {
  const body = z
    .object({ kind: z.literal(kind), content: ChoiceContent, key: facts.key })
    .superRefine((b, ctx) =>
      b.key.options.forEach((id, i) => checkOptionExists(ctx, b.content.options, id, ['key', 'options', i])),
    );
  return {
    kind,
    type: facts.type,
    label: facts.label,
    sections: ['linetest', 'major'],
    displayOrder: facts.displayOrder,
    content: ChoiceContent,
    key: facts.key,
    body,
    answer: 'multi',
    scoring: 'auto',
    shuffleOptions: true,
    code: false,
    sub: true,
    defaultScore: 5,
    responses: (b) => optionResponses(b.content.options, b.key.options),
    score: (b, value, points) => scoreMany(b.key, value, points),
    answerProblem: (c, value) => manyOptionsProblem(kind, c.options, value),
    candidateView: choiceView,
  } satisfies QuestionSpec<K, ChoiceContent, MultipleKey>;
}
