import { z } from 'zod';
import { QuestionType } from '../enums.js';
import { StemField, wrongAnswerKind, type QuestionSpec } from './common.js';

/** Content of a Q&A question: only its stem. */
export const QaContent = z.object({
  /** The question text (sanitized HTML). */
  stem: StemField,
});
/** Content of a Q&A question. */
export type QaContent = z.infer<typeof QaContent>;

/** Key of a question scored by a grader: the rubric they follow. */
export const RubricKey = z.object({
  /** How to give points (plain text or HTML), for graders only. */
  rubric: z.string().max(100_000, 'the rubric is too long').optional(),
});
/** Key of a question scored by a grader. */
export type RubricKey = z.infer<typeof RubricKey>;

/** A Q&A question. */
export const QaBody = z.object({ kind: z.literal('qa'), content: QaContent, key: RubricKey });

/** Q&A (type 5): rich text and files, scored by a grader. */
export const QA: QuestionSpec<'qa', QaContent, RubricKey> = {
  kind: 'qa',
  type: QuestionType.qa,
  sections: ['linetest', 'major'],
  content: QaContent,
  key: RubricKey,
  answer: 'text',
  scoring: 'grader',
  score: () => null,
  answerProblem: (_c, value) => wrongAnswerKind('qa', 'text', value),
  candidateView: (c) => ({ stem: c.stem }),
};
