/** What a candidate reads after submitting: their attempt's questions with the explanations. */
import { z } from 'zod';
import { QuestionExplanation } from '../questions/explanation.js';
import { IdParam } from './common.js';

/** GET /exam/explanations query. */
export const ExplanationsQuery = z.object({
  /** Exam id. */
  exam_id: IdParam,
});
/** GET /exam/explanations query. */
export type ExplanationsQuery = z.input<typeof ExplanationsQuery>;

/** A question of the candidate's submitted attempt with its explanation and its feedback per option. */
export const ExplainedQuestion = z.object({
  /** Question id (as /subject/order-list named it). */
  id: z.number().int(),
  /** Question type id (1..11). */
  type: z.number().int(),
  /** Its position in the attempt, from 1 (evaluation items after the others). */
  order_num: z.number().int(),
  /** The question text (sanitized HTML). */
  stem: z.string(),
  /** Its options, for the kinds with options (in their stored order: A, B, ...). */
  options: z.array(z.object({ id: z.string(), content: z.string() })).optional(),
  /** The options the candidate chose (ids), for the kinds with options; [] when they chose none. */
  chosen: z.array(z.string()).optional(),
  /** The explanation (sanitized HTML; '' for none) and the feedback per option ('A', or '2.A' for a sub's). */
  explanation: QuestionExplanation,
});
/** A question with its explanation. */
export type ExplainedQuestion = z.infer<typeof ExplainedQuestion>;

/** GET /exam/explanations data: the questions of the attempt that have an explanation or a feedback, in order. */
export const ExplanationsData = z.object({
  list: z.array(ExplainedQuestion),
});
/** GET /exam/explanations data. */
export type ExplanationsData = z.infer<typeof ExplanationsData>;
