/** What counts as an answer, per kind of value. */
import { AnswerValue, KINDS, type Subject } from '@examhall/contract';

/** The answer of one sub-question (the kinds a reading or listening part takes). */
export type SubValue = Extract<AnswerValue, { kind: 'choice' | 'multi' | 'blanks' }>;

/** A stored answer value from the server, when it is a well-formed one. */
export function parseStored(value: unknown): AnswerValue | undefined {
  const parsed = AnswerValue.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/** Whether a sub-question (or question) of this shape is answered with blanks. */
export function isBlanks(subject: Pick<Subject, 'type'>): boolean {
  return KINDS.answerOfType(subject.type) === 'blanks';
}
