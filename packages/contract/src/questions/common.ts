import { z } from 'zod';
import type { QuestionType, Section } from '../enums.js';
import type { LanguageId } from '../languages.js';
import type { AnswerValue } from '../schemas/answer.js';

/** Option ids a choice question may use, in order: at most eight options. */
export const OPTION_IDS = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'] as const;
/** An option id. */
export type OptionIdValue = (typeof OPTION_IDS)[number];

/** Fewest and most options of a choice question. */
export const OPTION_COUNT = { min: 2, max: 8 } as const;

/** An option id, 'A' to 'H' (typed as a string, so that options built from plain data fit). */
export const OptionIdField = z
  .string({ error: "an option id is a letter from 'A' to 'H'" })
  .regex(/^[A-H]$/, "an option id is a letter from 'A' to 'H'");

/** Longest rich text (stem, passage, option) stored, characters. */
export const RICH_TEXT_MAX = 100_000;

/** The question text (sanitized HTML). */
export const StemField = z.string().min(1, 'the stem is empty').max(RICH_TEXT_MAX, 'the stem is too long');

/** One option of a choice question. */
export const ChoiceOption = z.object({
  /** Option id, stable across shuffles ('A', 'B', ...). */
  id: OptionIdField,
  /** Option text (sanitized HTML). */
  content: z.string().min(1, 'the option is empty').max(RICH_TEXT_MAX, 'the option is too long'),
});
/** One option of a choice question. */
export type ChoiceOption = z.infer<typeof ChoiceOption>;

/** Options of a choice question: `min` to `max` of them, ids unique. */
export function optionList(min: number = OPTION_COUNT.min, max: number = OPTION_COUNT.max) {
  const count = min === max ? `exactly ${min} options` : null;
  return z
    .array(ChoiceOption)
    .min(min, count ?? `at least ${min} options`)
    .max(max, count ?? `at most ${max} options`)
    .superRefine((options, ctx) => {
      const seen = new Set<string>();
      options.forEach((o, i) => {
        if (seen.has(o.id)) report(ctx, [i, 'id'], `option id ${o.id} is used twice`);
        seen.add(o.id);
      });
    });
}

/** The options of a choice question: 2 to 8, ids unique. */
export const ChoiceOptions = optionList();

/** Options 'A', 'B', ... with the given texts, in order (at most eight). */
export function letterOptions(...texts: string[]): ChoiceOption[] {
  return texts.slice(0, OPTION_IDS.length).map((content, i) => ({ id: OPTION_IDS[i]!, content }));
}

/** Points an option earns (gradient and evaluation items). */
export const OptionPoints = z
  .number({ error: 'points must be a number' })
  .min(0, 'points are 0 or more')
  .max(1000, 'at most 1000 points');

/** Points per option id: one entry for every option of the question, and no other (checked by the body). */
export const OptionScores = z.record(OptionIdField, OptionPoints);
/** Points per option id. */
export type OptionScores = z.infer<typeof OptionScores>;

/** A problem found while checking a question, as `path: message`. */
export type QuestionProblem = string;

/** Minimal context of a refinement: where problems are reported. */
export interface IssueSink {
  addIssue(issue: { code: 'custom'; message: string; path: (string | number)[] }): void;
}

/** Reports one problem at a path. */
export function report(ctx: IssueSink, path: (string | number)[], message: string): void {
  ctx.addIssue({ code: 'custom', message, path });
}

/** Checks that a gradient/evaluation key has points for every option and nothing else, and a best above 0. */
export function checkOptionScores(
  ctx: IssueSink,
  options: readonly { id: string }[] | undefined,
  scores: Readonly<Record<string, number | undefined>> | undefined,
  path: (string | number)[],
): void {
  if (!options || !scores) return;
  const ids = new Set(options.map((o) => o.id));
  for (const o of options) {
    if (scores[o.id] === undefined) report(ctx, [...path, o.id], `option ${o.id} has no points`);
  }
  for (const id of Object.keys(scores)) {
    if (!ids.has(id)) report(ctx, [...path, id], `there is no option ${id}`);
  }
  const values = Object.values(scores).filter((v): v is number => typeof v === 'number');
  if (values.length > 0 && Math.max(...values) <= 0) report(ctx, path, 'at least one option must earn points');
}

/** Checks that a key's option exists among the question's options. */
export function checkOptionExists(
  ctx: IssueSink,
  options: readonly { id: string }[] | undefined,
  id: string,
  path: (string | number)[],
): void {
  if (options && !options.some((o) => o.id === id)) report(ctx, path, `there is no option ${id}`);
}

/** Rounds points to hundredths. */
export const round2 = (n: number): number => Math.round(n * 100) / 100;

/** Turns a Zod error into `path: message` lines, the form editors show next to a field. */
export function problemsOf(error: z.ZodError, prefix: (string | number)[] = []): QuestionProblem[] {
  return error.issues.map((issue) => {
    const path = [...prefix, ...issue.path.map((p) => String(p))].join('.');
    return path ? `${path}: ${issue.message}` : issue.message;
  });
}

/** The kind of answer value a question takes. */
export type AnswerKind = AnswerValue['kind'];

/** The parts of a question shown to candidates besides id, type, position, points and section. */
export interface CandidateSub {
  /** Sub-question id. */
  id: number;
  /** Sub-question type id. */
  type: number;
  /** Position among the subs, from 1. */
  order_num: number;
  /** Points of the sub-question. */
  score: number;
  /** The sub-question's text. */
  stem: string;
  /** Options of a choice sub-question. */
  options?: { id: string; content: string }[];
  /** Number of blanks of a fill-in-blank sub-question. */
  blanks?: number;
}

/** What a question may show a candidate: never a key field (see Subject). */
export interface CandidateContent {
  /** The question text. */
  stem: string;
  /** Options of choice types. */
  options?: { id: string; content: string }[];
  /** Number of blanks. */
  blanks?: number;
  /** Languages of a programming question. */
  languages?: LanguageId[];
  /** Starter code per language. */
  starter?: Partial<Record<LanguageId, string>>;
  /** Sample cases. */
  samples?: { input: string; output: string }[];
  /** CPU time limit per case, ms. */
  time_limit_ms?: number;
  /** Memory limit, MB. */
  memory_limit_mb?: number;
  /** Reading passage. */
  passage?: string;
  /** Listening audio's play limit and length. */
  audio?: { play_limit: number; duration_s: number };
  /** Sub-questions. */
  subs?: CandidateSub[];
}

/** Copies options without anything but id and text. */
export const viewOptions = (options: readonly { id: string; content: string }[]) =>
  options.map((o) => ({ id: o.id, content: o.content }));

/** How a kind's answers earn points. */
export type ScoringMode =
  /** Scored at once from the key. */
  | 'auto'
  /** Scored by the judge: the share of hidden cases its latest submit passed (see judgedScore). */
  | 'judge'
  /** Scored by a person (a grader). */
  | 'grader'
  /** Evaluation items: points go to their dimension, not to the exam's score. */
  | 'dimension';

/**
 * A complete question of a kind: for tests and the demo exam. Each kind's file exports its examples apart from its
 * entry (`<kind>Examples`), so that the exam page, which bundles the entries, carries none of them.
 */
export interface KindExample<C, Y> {
  content: C;
  key: Y;
  /** Where the demo exam shows it (default: the kind's first section) and its points there (default: defaultScore). */
  demo?: { section?: Section; points?: number };
}

/** The options item analysis counts for a question: every option id and those the key holds. */
export interface KindResponses {
  ids: string[];
  key: Set<string>;
}

/**
 * Everything the system knows about one question kind, in one place (its file in `kinds/`). Every list, order and
 * switch over kinds is derived from these entries (see kinds/index.ts), so a new kind is a new file there.
 */
export interface QuestionSpec<K extends string, C, Y> {
  /** The discriminator. */
  kind: K;
  /** Question type id (1..11) stored in questions.type and shown to candidates. */
  type: QuestionType;
  /** Its name in each language the product speaks. */
  label: { readonly 'zh-CN': string; readonly 'en-US': string };
  /** Sections the kind may appear in. */
  sections: readonly Section[];
  /** Its position when a section shows its questions grouped by type (1 first; kinds of one type share it). */
  displayOrder: number;
  /** Schema of what candidates may see. */
  content: z.ZodType<C, unknown>;
  /** Schema of the secret key. */
  key: z.ZodType<Y, unknown>;
  /** Schema of the whole body (`kind`, content and key checked together). */
  body: z.ZodType<{ kind: K; content: C; key: Y }, unknown>;
  /** The answer value kind it takes. */
  answer: AnswerKind;
  /** How it is scored. */
  scoring: ScoringMode;
  /** Whether each candidate sees its options in an order of their own (option ids stay). */
  shuffleOptions: boolean;
  /** Whether answers are source code (compared by the similarity check). */
  code: boolean;
  /** Whether it may be a sub-question of a reading or listening question (its content then sits in the sub). */
  sub: boolean;
  /** Points a new question of the kind gets. */
  defaultScore: number;
  /** The options item analysis counts and which the key holds; null when the kind has none of its own. */
  responses(body: { content: C; key: Y }): KindResponses | null;
  /**
   * Points for an answer, out of `points`; null when the kind is not scored automatically (graders, judge).
   * Evaluation items answer the chosen option's own points (what it adds to its dimension).
   */
  score(body: { content: C; key: Y }, value: AnswerValue | null, points: number): number | null;
  /** Why an answer does not fit the question (`answer...: message`), or null when it does. */
  answerProblem(content: C, value: AnswerValue): string | null;
  /** What /subject/show-new may show of the content: never a key field. */
  candidateView(content: C): CandidateContent;
}

/** A kind whose type and facts are known but whose content and key are not (lists and lookups over all kinds). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyQuestionSpec = QuestionSpec<string, any, any>;

/** The problem of an answer of the wrong kind, or null. */
export function wrongAnswerKind(kind: string, want: AnswerKind, value: AnswerValue): string | null {
  return value.kind === want ? null : `answer: a ${kind} question takes a '${want}' answer`;
}
