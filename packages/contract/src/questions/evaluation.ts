import { z } from 'zod';
import { GradientKey } from './choice.js';
import { checkOptionScores, ChoiceOptions, StemField } from './common.js';

/** Content of an evaluation (personality) item: a statement, its options and the dimension it measures. */
export const EvaluationContent = z.object({
  /** The statement (sanitized HTML). */
  stem: StemField,
  /** The options, 2 to 8 (e.g. a Likert scale). */
  options: ChoiceOptions,
  /** The dimension the item measures (e.g. teamwork); results are reported per dimension. */
  dimension: z
    .string({ error: 'name the dimension this item measures' })
    .trim()
    .min(1, 'name the dimension this item measures')
    .max(64, 'a dimension name is at most 64 characters'),
});
/** Content of an evaluation item. */
export type EvaluationContent = z.infer<typeof EvaluationContent>;

/** Key of an evaluation item: points per option, added to the item's dimension. */
export const EvaluationKey = GradientKey;
/** Key of an evaluation item. */
export type EvaluationKey = z.infer<typeof EvaluationKey>;

/** An evaluation item. */
export const EvaluationBody = z
  .object({ kind: z.literal('evaluation'), content: EvaluationContent, key: EvaluationKey })
  .superRefine((b, ctx) => checkOptionScores(ctx, b.content.options, b.key.scores, ['key', 'scores']));

/** The most points an evaluation item can add to its dimension. */
export function evaluationMax(key: EvaluationKey): number {
  return Math.max(0, ...Object.values(key.scores));
}
