/** What counts as an answer, per kind of value. */
import { AnswerValue, type Subject } from '@examhall/contract';

/** The answer of one sub-question (the kinds a reading or listening part takes). */
export type SubValue = Extract<AnswerValue, { kind: 'choice' | 'multi' | 'blanks' }>;

/** True when a value holds something the candidate entered or chose. */
export function hasContent(value: AnswerValue | SubValue | string | undefined): boolean {
  if (value === undefined) return false;
  if (typeof value === 'string') return value !== '';
  switch (value.kind) {
    case 'choice':
      return value.option !== '';
    case 'multi':
      return value.options.length > 0;
    case 'blanks':
      return value.blanks.some((b) => b.trim() !== '');
    case 'text':
      return value.html.replace(/<[^>]*>/g, '').trim() !== '' || value.files.length > 0;
    case 'code':
      return value.code.trim() !== '';
    case 'subs':
      return Object.values(value.subs).some((s) => hasContent(s));
  }
}

/** A stored answer value from the server, when it is a well-formed one. */
export function parseStored(value: unknown): AnswerValue | undefined {
  const parsed = AnswerValue.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/** Whether a sub-question (or question) of this shape is answered with blanks. */
export function isBlanks(subject: Pick<Subject, 'type'>): boolean {
  return subject.type === 4;
}
