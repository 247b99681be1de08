import { z } from 'zod';
import { StemField } from './common.js';

/** Content of a Q&A question: only its stem. */
export const QaContent = z.object({
  /** The question text (sanitized HTML). */
  stem: StemField,
});
/** Content of a Q&A question. */
export type QaContent = z.infer<typeof QaContent>;

/** One criterion of a rubric: what a grader looks for and the points it is worth. */
export const RubricCriterion = z.object({
  /** Short name, e.g. "Correctness". */
  title: z.string().trim().min(1, 'a criterion needs a title').max(200, 'the title is too long'),
  /** Points the criterion is worth (a grader gives 0 up to these). */
  points: z.number().positive('a criterion is worth more than 0 points').max(1000, 'at most 1000 points'),
  /** What earns the points, for graders only. */
  description: z.string().max(10_000, 'the description is too long').default(''),
});
/** One criterion of a rubric. */
export type RubricCriterion = z.infer<typeof RubricCriterion>;

/** The criteria of a rubric, scored one by one; a question with none is scored as one whole. */
export const RubricCriteria = z.array(RubricCriterion).max(20, 'at most 20 criteria');

/** Key of a question scored by a grader: the rubric they follow. */
export const RubricKey = z.object({
  /** How to give points (plain text or HTML), for graders only. */
  rubric: z.string().max(100_000, 'the rubric is too long').optional(),
  /** Criteria scored one by one (their points are scaled to the question's points in the exam). */
  criteria: RubricCriteria.optional(),
});
/** Key of a question scored by a grader. */
export type RubricKey = z.infer<typeof RubricKey>;

/** A Q&A question. */
export const QaBody = z.object({ kind: z.literal('qa'), content: QaContent, key: RubricKey });
