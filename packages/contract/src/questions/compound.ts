import { z } from 'zod';
import { QuestionType } from '../enums.js';
import type { AnswerValue } from '../schemas/answer.js';
import { blanksProblem, checkBlankCount, FillBlankKey, scoreBlanks } from './blank.js';
import {
  GradientKey,
  IndefiniteKey,
  manyOptionsProblem,
  MultipleKey,
  OneOptionKey,
  oneOptionProblem,
  scoreGradient,
  INDEFINITE,
  MULTIPLE,
  SINGLE,
  TRUE_FALSE,
} from './choice.js';
import {
  checkOptionExists,
  checkOptionScores,
  ChoiceOptions,
  optionList,
  report,
  RICH_TEXT_MAX,
  round2,
  StemField,
  viewOptions,
  wrongAnswerKind,
  type CandidateSub,
  type IssueSink,
  type QuestionSpec,
} from './common.js';

/** Fields every sub-question has. */
const subBase = {
  /** Sub-question id, unique within its question; keys and answers refer to it. */
  id: z.number({ error: 'a sub-question id is a number' }).int().min(1, 'sub-question ids start at 1'),
  /** Points of the sub-question. */
  score: z.number({ error: 'points must be a number' }).min(0, 'points are 0 or more').max(1000, 'at most 1000 points'),
  /** The sub-question's text (sanitized HTML). */
  stem: StemField,
};

/** A single-choice sub-question (type 1). */
const SingleSub = z.object({ ...subBase, type: z.literal(QuestionType.single), options: ChoiceOptions });
/** A multiple-choice sub-question (type 2). */
const MultipleSub = z.object({ ...subBase, type: z.literal(QuestionType.multiple), options: ChoiceOptions });
/** An indefinite-choice sub-question (type 3). */
const IndefiniteSub = z.object({ ...subBase, type: z.literal(QuestionType.indefinite), options: ChoiceOptions });
/** A fill-in-blank sub-question (type 4). */
const FillBlankSub = z.object({
  ...subBase,
  type: z.literal(QuestionType.fillBlank),
  blanks: z.number().int('the number of blanks is a whole number').min(1, 'at least one blank').max(50),
});
/** A true/false sub-question (type 7). */
const TrueFalseSub = z.object({ ...subBase, type: z.literal(QuestionType.trueFalse), options: optionList(2, 2) });
/** A gradient sub-question (type 11). */
const GradientSub = z.object({ ...subBase, type: z.literal(QuestionType.gradient), options: ChoiceOptions });

/** A sub-question of a reading or listening question; only the types of SUB_QUESTION_TYPES. */
export const SubQuestion = z.discriminatedUnion(
  'type',
  [SingleSub, MultipleSub, IndefiniteSub, FillBlankSub, TrueFalseSub, GradientSub],
  {
    error:
      'a sub-question is single (1), multiple (2), indefinite (3), fill-in-blank (4), true/false (7) or gradient (11)',
  },
);
/** A sub-question. */
export type SubQuestion = z.infer<typeof SubQuestion>;

/**
 * The key of one sub-question as stored: the field its type uses (option, options, blanks or scores).
 * Its shape is checked against the sub's type by the question's body check (checkSubKeys).
 */
export const SubKey = z.object({
  /** The right option (single, true/false). */
  option: z.string().optional(),
  /** The right options (multiple, indefinite). */
  options: z.array(z.string()).optional(),
  /** Accepted variants per blank (fill-in-blank). */
  blanks: z.array(z.array(z.string())).optional(),
  /** Points per option (gradient). */
  scores: z.record(z.string(), z.number()).optional(),
});
/** The key of one sub-question. */
export type SubKey = z.infer<typeof SubKey>;

/** Sub-questions: 1 to 50, ids unique. */
const SubList = z
  .array(SubQuestion)
  .min(1, 'add at least one sub-question')
  .max(50, 'at most 50 sub-questions')
  .superRefine((subs, ctx) => {
    const seen = new Set<number>();
    subs.forEach((s, i) => {
      if (seen.has(s.id)) report(ctx, [i, 'id'], `sub-question id ${s.id} is used twice`);
      seen.add(s.id);
    });
  });

/** Content of a reading question: a passage and its sub-questions. */
export const ReadingContent = z.object({
  /** Instructions (sanitized HTML). */
  stem: StemField,
  /** The passage (sanitized HTML). */
  passage: z.string().min(1, 'the passage is empty').max(RICH_TEXT_MAX, 'the passage is too long'),
  /** Sub-questions. */
  subs: SubList,
});
/** Content of a reading question. */
export type ReadingContent = z.infer<typeof ReadingContent>;

/** Audio of a listening question as candidates learn of it. */
export const ListeningAudio = z.object({
  /** How often a candidate may play it, 1 to 10. */
  play_limit: z
    .number({ error: 'the play limit must be a number' })
    .int('the play limit is a whole number')
    .min(1, 'at least one play')
    .max(10, 'at most 10 plays'),
  /** Its length in seconds (read on the server at upload). */
  duration_s: z
    .number({ error: 'the duration must be a number' })
    .positive('the duration must be above 0')
    .max(3 * 3600, 'at most three hours'),
});

/** Content of a listening question: audio and its sub-questions. */
export const ListeningContent = z.object({
  /** Instructions (sanitized HTML). */
  stem: StemField,
  /** The audio's play limit and length. */
  audio: ListeningAudio,
  /** Sub-questions. */
  subs: SubList,
});
/** Content of a listening question. */
export type ListeningContent = z.infer<typeof ListeningContent>;

/** Key of a reading question: a key per sub-question id. */
export const ReadingKey = z.object({
  /** Key of each sub-question by id (its shape follows the sub's type). */
  subs: z.record(z.string(), SubKey),
});
/** Key of a reading question. */
export type ReadingKey = z.infer<typeof ReadingKey>;

/** Key of a listening question: the audio's storage key and a key per sub-question. */
export const ListeningKey = z.object({
  /** Where the audio is stored; never shown (candidates get a short-lived link). */
  audio: z.object({
    /** Object key in storage. */
    key: z.string().min(1, 'upload the audio').max(300),
  }),
  /** Key of each sub-question by id. */
  subs: z.record(z.string(), SubKey),
});
/** Key of a listening question. */
export type ListeningKey = z.infer<typeof ListeningKey>;

/** The key schema each sub type takes. */
const SUB_KEY_SCHEMA = {
  [QuestionType.single]: OneOptionKey,
  [QuestionType.multiple]: MultipleKey,
  [QuestionType.indefinite]: IndefiniteKey,
  [QuestionType.fillBlank]: FillBlankKey,
  [QuestionType.trueFalse]: OneOptionKey,
  [QuestionType.gradient]: GradientKey,
} as const;

/** Checks that every sub has a key of its type's shape that fits it, and that no key is left over. */
function checkSubKeys(ctx: IssueSink, subs: readonly SubQuestion[], keys: Record<string, SubKey>): void {
  const ids = new Set(subs.map((s) => String(s.id)));
  for (const id of Object.keys(keys)) {
    if (!ids.has(id)) report(ctx, ['key', 'subs', id], `there is no sub-question ${id}`);
  }
  for (const sub of subs) {
    const path = ['key', 'subs', String(sub.id)];
    const raw = keys[String(sub.id)];
    if (raw === undefined) {
      report(ctx, path, `sub-question ${sub.id} has no key`);
      continue;
    }
    const parsed = SUB_KEY_SCHEMA[sub.type].safeParse(raw);
    if (!parsed.success) {
      for (const issue of parsed.error.issues)
        report(ctx, [...path, ...issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))], issue.message);
      continue;
    }
    const key = parsed.data;
    switch (sub.type) {
      case QuestionType.single:
      case QuestionType.trueFalse:
        checkOptionExists(ctx, sub.options, (key as OneOptionKey).option, [...path, 'option']);
        break;
      case QuestionType.multiple:
      case QuestionType.indefinite:
        (key as MultipleKey).options.forEach((id, i) =>
          checkOptionExists(ctx, sub.options, id, [...path, 'options', i]),
        );
        break;
      case QuestionType.fillBlank:
        checkBlankCount(ctx, { stem: sub.stem, blanks: sub.blanks }, key as FillBlankKey, [...path, 'blanks']);
        break;
      case QuestionType.gradient:
        checkOptionScores(ctx, sub.options, (key as GradientKey).scores, [...path, 'scores']);
        break;
    }
  }
}

/** A reading question. */
export const ReadingBody = z
  .object({ kind: z.literal('reading'), content: ReadingContent, key: ReadingKey })
  .superRefine((b, ctx) => checkSubKeys(ctx, b.content.subs, b.key.subs));

/**
 * Points of one sub-question's answer out of its own points. The key's shape was checked against the sub's
 * type when the question was parsed (checkSubKeys), which is what makes the narrowing casts below sound.
 */
export function scoreSub(sub: SubQuestion, key: SubKey | undefined, value: AnswerValue | null): number {
  if (!key || !value) return 0;
  switch (sub.type) {
    case QuestionType.single:
      return SINGLE.score({ content: sub, key: key as OneOptionKey }, value, sub.score) ?? 0;
    case QuestionType.trueFalse:
      return TRUE_FALSE.score({ content: sub, key: key as OneOptionKey }, value, sub.score) ?? 0;
    case QuestionType.multiple:
      return MULTIPLE.score({ content: sub, key: key as MultipleKey }, value, sub.score) ?? 0;
    case QuestionType.indefinite:
      return INDEFINITE.score({ content: sub, key: key as IndefiniteKey }, value, sub.score) ?? 0;
    case QuestionType.fillBlank:
      return scoreBlanks(key as FillBlankKey, value, sub.score);
    case QuestionType.gradient:
      return scoreGradient(key as GradientKey, value, sub.score);
  }
}

/**
 * The sum of the sub-questions, each scored by its own type, scaled to the question's points (when the
 * subs' points add up to the question's, as they usually do, nothing changes).
 */
function scoreSubs(
  subs: readonly SubQuestion[],
  keys: Record<string, SubKey>,
  value: AnswerValue | null,
  points: number,
): number {
  if (value?.kind !== 'subs') return 0;
  const max = subs.reduce((n, s) => n + s.score, 0);
  if (max <= 0) return 0;
  const got = subs.reduce((n, s) => n + scoreSub(s, keys[String(s.id)], value.subs[String(s.id)] ?? null), 0);
  return round2((got / max) * points);
}

/** Why a sub-question's answer does not fit it, or null. */
function subProblem(sub: SubQuestion, value: AnswerValue): string | null {
  switch (sub.type) {
    case QuestionType.single:
    case QuestionType.trueFalse:
    case QuestionType.gradient:
      return oneOptionProblem(`type ${sub.type}`, sub.options, value);
    case QuestionType.multiple:
    case QuestionType.indefinite:
      return manyOptionsProblem(`type ${sub.type}`, sub.options, value);
    case QuestionType.fillBlank:
      return blanksProblem(`type ${sub.type}`, { stem: sub.stem, blanks: sub.blanks }, value);
  }
}

/** Why a subs answer does not fit, or null. */
function subsProblem(kind: string, subs: readonly SubQuestion[], value: AnswerValue): string | null {
  const wrong = wrongAnswerKind(kind, 'subs', value);
  if (wrong || value.kind !== 'subs') return wrong;
  for (const [subId, subValue] of Object.entries(value.subs)) {
    const sub = subs.find((s) => String(s.id) === subId);
    if (!sub) return `answer.subs.${subId}: no such sub-question`;
    const problem = subProblem(sub, subValue);
    if (problem) return problem.replace(/^answer/, `answer.subs.${subId}`);
  }
  return null;
}

/** Sub-questions as candidates see them. */
function subsView(subs: readonly SubQuestion[]): CandidateSub[] {
  return subs.map((s, i) => ({
    id: s.id,
    type: s.type,
    order_num: i + 1,
    score: s.score,
    stem: s.stem,
    ...('options' in s ? { options: viewOptions(s.options) } : {}),
    ...('blanks' in s ? { blanks: s.blanks } : {}),
  }));
}

/** A listening question. */
export const ListeningBody = z
  .object({ kind: z.literal('listening'), content: ListeningContent, key: ListeningKey })
  .superRefine((b, ctx) => checkSubKeys(ctx, b.content.subs, b.key.subs));

/** Reading (type 9). */
export const READING: QuestionSpec<'reading', ReadingContent, ReadingKey> = {
  kind: 'reading',
  type: QuestionType.reading,
  sections: ['linetest', 'major'],
  content: ReadingContent,
  key: ReadingKey,
  answer: 'subs',
  scoring: 'auto',
  score: (b, value, points) => scoreSubs(b.content.subs, b.key.subs, value, points),
  answerProblem: (c, value) => subsProblem('reading', c.subs, value),
  candidateView: (c) => ({ stem: c.stem, passage: c.passage, subs: subsView(c.subs) }),
};

/** Listening (type 10). */
export const LISTENING: QuestionSpec<'listening', ListeningContent, ListeningKey> = {
  kind: 'listening',
  type: QuestionType.listening,
  sections: ['linetest', 'major'],
  content: ListeningContent,
  key: ListeningKey,
  answer: 'subs',
  scoring: 'auto',
  score: (b, value, points) => scoreSubs(b.content.subs, b.key.subs, value, points),
  answerProblem: (c, value) => subsProblem('listening', c.subs, value),
  candidateView: (c) => ({
    stem: c.stem,
    audio: { play_limit: c.audio.play_limit, duration_s: c.audio.duration_s },
    subs: subsView(c.subs),
  }),
};
