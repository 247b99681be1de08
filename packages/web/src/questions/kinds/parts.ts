/**
 * What the kinds' draft rules (kinds/<kind>/draft.ts) build their drafts from: empty options, the usual option
 * texts, points down the options, and the hand-over of options and right answers between choice kinds.
 * Framework-free, and free of the drafts' own lookups so that the folders and drafts.ts do not import each other.
 */
import { OPTION_IDS, type LanguageId } from '@examhall/contract';
import type { Language } from '../../i18n/format.js';
import type {
  ChoiceContentDraft,
  CodeContentDraft,
  DraftRules,
  ManyKeyDraft,
  OptionDraft,
  RubricKeyDraft,
  SharedParts,
  SubRules,
} from '../draftTypes.js';

/** Languages a new programming question offers. */
export const DEFAULT_LANGUAGES: LanguageId[] = ['c', 'cpp', 'java', 'python', 'javascript', 'go'];

/** Points a new sub-question is worth. */
export const DEFAULT_SUB_SCORE = 5;

/** `n` empty options A, B, … */
export function emptyOptions(n: number): OptionDraft[] {
  return OPTION_IDS.slice(0, n).map((id) => ({ id, content: '' }));
}

/** Options A, B, … with these texts. */
export const withTexts = (texts: readonly string[]): OptionDraft[] =>
  texts.map((content, i) => ({ id: OPTION_IDS[i] ?? String(i), content }));

/** The usual true/false options, in the language the author writes in (candidates see them as written). */
export const TRUE_FALSE_OPTIONS: Readonly<Record<Language, readonly string[]>> = {
  'zh-CN': ['正确', '错误'],
  'en-US': ['True', 'False'],
};

/** A five-point agreement scale for evaluation items, best first, in the language the author writes in. */
export const LIKERT_OPTIONS: Readonly<Record<Language, readonly string[]>> = {
  'zh-CN': ['非常同意', '同意', '一般', '不同意', '非常不同意'],
  'en-US': ['Strongly agree', 'Agree', 'Neutral', 'Disagree', 'Strongly disagree'],
};

/** Points falling from `n` to 1 down the options. */
export function descendingScores(options: readonly OptionDraft[]): Partial<Record<string, number>> {
  return Object.fromEntries(options.map((o, i) => [o.id, options.length - i]));
}

/** The right options handed over that are among `options`. */
export function keptPicks(parts: SharedParts, options: readonly OptionDraft[]): string[] {
  return (parts.picks ?? []).filter((id) => options.some((o) => o.id === id));
}

/** The one right option of a one-pick key, as handed over. */
export const onePick = (key: { option?: string }): string[] => (key.option === undefined ? [] : [key.option]);

/** A one-pick key from the options handed over: the right one when exactly one is among `options`. */
export function takeOnePick<Key extends { option?: string }>(
  key: Key,
  parts: SharedParts,
  options: readonly OptionDraft[],
): Key {
  const kept = keptPicks(parts, options);
  return kept.length === 1 ? { ...key, option: kept[0] } : key;
}

/** Options and points of a kind scored per option (gradient, evaluation) from what another kind hands over. */
export function takeScored<
  B extends { content: { options: OptionDraft[] }; key: { scores: Partial<Record<string, number>> } },
>(body: B, parts: SharedParts): B {
  if (!parts.options) return body;
  const options = parts.options;
  return {
    ...body,
    content: { ...body.content, options },
    key: { ...body.key, scores: parts.scores ?? descendingScores(options) },
  };
}

/** What a code kind hands over: its languages and starter code. */
export const giveCode = (c: CodeContentDraft): SharedParts['code'] => ({ languages: c.languages, starter: c.starter });

/** A code kind's content with the languages and starter code handed over. */
export function takeCode<C extends CodeContentDraft>(content: C, parts: SharedParts): C {
  return parts.code ? { ...content, languages: parts.code.languages, starter: { ...parts.code.starter } } : content;
}

/** What a graded kind hands over: its rubric and criteria. */
export const giveGrading = (k: RubricKeyDraft): SharedParts['grading'] => k;

/** A graded kind's key with the rubric (and criteria, when there are) handed over. */
export function takeGrading(key: RubricKeyDraft, parts: SharedParts): RubricKeyDraft {
  const g = parts.grading;
  return g ? { ...key, rubric: g.rubric, ...(g.criteria ? { criteria: g.criteria } : {}) } : key;
}

/** A body of the several-picks family (multiple, indefinite). */
type ManyPicksBody = { content: ChoiceContentDraft; key: ManyKeyDraft };

/**
 * The draft rules of a kind of the several-picks family: four empty options and no right ones yet, the options and
 * right ones handed on when the kind changes, and a sub-question with options.
 */
export function manyPicksDraft<K extends string>(
  kind: K,
): DraftRules<K, ManyPicksBody> & { sub: SubRules<ManyPicksBody> } {
  return {
    kind,
    empty: () => ({ content: { stem: '', options: emptyOptions(4) }, key: { options: [] } }),
    give: (b) => ({ options: b.content.options, picks: b.key.options }),
    take: (b, parts) => {
      const options = parts.options ?? b.content.options;
      return { content: { ...b.content, options }, key: { options: keptPicks(parts, options) } };
    },
    sub: {
      asBody: (sub, key) => ({
        content: { stem: sub.stem, options: sub.options ?? [] },
        key: { options: key.options ?? [] },
      }),
      fields: (b) => ({ stem: b.content.stem, options: b.content.options }),
    },
  };
}
