/** A candidate's answer in a few words, for the report's table. */
import { enumText, PROGRAMMING_LANGUAGE_TEXTS, type AnswerValue, type TextLanguage } from '@examhall/contract';

/** Longest summary shown. */
const MAX = 80;

/**
 * Plain text of an answer: the option(s), the blanks, the text without tags, the code's language by name and its first
 * line, or each sub-question's answer by its place.
 */
export function answerSummary(a: AnswerValue | null, lang: TextLanguage): string | null {
  if (a === null) return null;
  const cut = (s: string) => (s.length > MAX ? `${s.slice(0, MAX)}…` : s);
  switch (a.kind) {
    case 'choice':
      return a.option;
    case 'multi':
      return a.options.join(', ');
    case 'blanks':
      return a.blanks.join(' | ');
    case 'text':
      return cut(
        a.html
          .replace(/<[^>]*>/g, ' ')
          .replace(/\s+/g, ' ')
          .trim(),
      );
    case 'code':
      return cut(`${enumText(PROGRAMMING_LANGUAGE_TEXTS, a.language, lang)}: ${a.code.trim().split('\n')[0] ?? ''}`);
    case 'subs':
      return cut(
        // Ids ascending (an integer key's order), which is the sub-questions' order.
        Object.values(a.subs)
          .map((sub, i) => `${i + 1}. ${answerSummary(sub, lang) ?? ''}`)
          .join('; '),
      );
  }
}
