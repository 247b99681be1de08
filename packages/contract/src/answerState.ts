/**
 * What counts as answered: one definition for the answer card, the submit dialog, the order lists and the
 * result page, so their counts agree.
 */
import type { AnswerValue } from './schemas/answer.js';
import type { Subject } from './schemas/subject.js';

/** How far a question is answered. */
export type AnswerState = 'answered' | 'partial' | 'unanswered';

/** The answer of one sub-question (the kinds a reading or listening part takes). */
type SubValue = Extract<AnswerValue, { kind: 'choice' | 'multi' | 'blanks' }>;

/**
 * What a question asks to be filled in, as far as completeness goes: its number of blanks, or its
 * sub-questions (each with its own number of blanks when it has some). Other questions are complete as soon as
 * they hold anything.
 */
export type AnswerShape = { blanks: number } | { subs: readonly { id: number; blanks?: number | undefined }[] } | null;

/** True when a value holds something the candidate entered or chose. */
export function hasContent(value: AnswerValue | SubValue | string | null | undefined): boolean {
  if (value === undefined || value === null) return false;
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

/** Blanks filled out of `count`. */
function filledBlanks(value: SubValue | AnswerValue | undefined, count: number): number {
  if (value?.kind !== 'blanks') return 0;
  return value.blanks.slice(0, count).filter((b) => b.trim() !== '').length;
}

/** Whether a value that has content leaves part of the question's shape empty. */
function incomplete(value: AnswerValue | string, shape: AnswerShape): boolean {
  if (shape === null || typeof value === 'string') return false;
  if ('blanks' in shape) return filledBlanks(value, shape.blanks) < shape.blanks;
  if (value.kind !== 'subs') return false;
  return shape.subs.some((sub) => {
    const v = value.subs[String(sub.id)];
    if (!hasContent(v)) return true;
    return sub.blanks !== undefined && filledBlanks(v, sub.blanks) < sub.blanks;
  });
}

/** How far `value` answers a question of `shape`: nothing, part of it (a blank or a sub-question left), or all. */
export function answerState(value: AnswerValue | string | null | undefined, shape: AnswerShape = null): AnswerState {
  if (value === null || value === undefined || !hasContent(value)) return 'unanswered';
  return incomplete(value, shape) ? 'partial' : 'answered';
}

/** The shape of a question as the candidate sees it: its blanks, or its sub-questions with theirs. */
export function shapeOf(subject: Pick<Subject, 'blanks' | 'subs'>): AnswerShape {
  if (subject.subs && subject.subs.length > 0)
    return { subs: subject.subs.map((s) => ({ id: s.id, blanks: s.blanks })) };
  if (subject.blanks !== undefined) return { blanks: subject.blanks };
  return null;
}
