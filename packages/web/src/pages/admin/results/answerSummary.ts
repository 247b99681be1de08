/** A candidate's answer in a few words, for the report's table. */
import type { AnswerValue } from '@examhall/contract';

/** Longest summary shown. */
const MAX = 80;

/** Plain text of an answer: the option(s), the blanks, the text without tags, or the code's first line. */
export function answerSummary(a: AnswerValue | null): string | null {
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
      return cut(`${a.language}: ${a.code.trim().split('\n')[0] ?? ''}`);
    case 'subs':
      return cut(JSON.stringify(a.subs));
  }
}
