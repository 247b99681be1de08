import { z } from 'zod';
import type { AnswerValue } from '../schemas/answer.js';
import { report, round2, StemField, wrongAnswerKind } from './common.js';

/** Most blanks of one question (an answer carries at most 50 texts). */
export const BLANKS_MAX = 50;

/** Content of a fill-in-blank question: the stem and how many blanks it has. */
export const FillBlankContent = z.object({
  /** The question text with its blanks (sanitized HTML). */
  stem: StemField,
  /** Number of blanks, 1 to 50. */
  blanks: z
    .number({ error: 'the number of blanks must be a number' })
    .int('the number of blanks is a whole number')
    .min(1, 'at least one blank')
    .max(BLANKS_MAX, `at most ${BLANKS_MAX} blanks`),
});
/** Content of a fill-in-blank question. */
export type FillBlankContent = z.infer<typeof FillBlankContent>;

/** One accepted answer of a blank. */
const Variant = z
  .string()
  .max(1000, 'an accepted answer is at most 1000 characters')
  .refine((v) => v.trim() !== '', 'an accepted answer is empty');

/** Key of a fill-in-blank question: the accepted variants of each blank, in order. */
export const FillBlankKey = z.object({
  /** One non-empty list of accepted variants per blank. */
  blanks: z
    .array(z.array(Variant).min(1, 'give at least one accepted answer for this blank'))
    .min(1, 'at least one blank')
    .max(BLANKS_MAX, `at most ${BLANKS_MAX} blanks`),
});
/** Key of a fill-in-blank question. */
export type FillBlankKey = z.infer<typeof FillBlankKey>;

/** Checks that the key has one variant list per blank of the content. */
export function checkBlankCount(
  ctx: Parameters<typeof report>[0],
  content: FillBlankContent,
  key: FillBlankKey,
  path: (string | number)[],
): void {
  if (key.blanks.length !== content.blanks)
    report(ctx, path, `the question has ${content.blanks} blank(s) but the key gives answers for ${key.blanks.length}`);
}

/** A fill-in-blank question. */
export const FillBlankBody = z
  .object({ kind: z.literal('fill_blank'), content: FillBlankContent, key: FillBlankKey })
  .superRefine((b, ctx) => checkBlankCount(ctx, b.content, b.key, ['key', 'blanks']));

/** Blank answers compare after folding full-width characters and case, trimming and collapsing spaces. */
export function normalizeBlank(text: string): string {
  return text.normalize('NFKC').trim().toLowerCase().replace(/\s+/g, ' ');
}

/** Each blank earns an equal share of the points when it matches one of its accepted variants. */
export function scoreBlanks(key: FillBlankKey, value: AnswerValue | null, points: number): number {
  if (value?.kind !== 'blanks' || key.blanks.length === 0) return 0;
  const share = points / key.blanks.length;
  const right = key.blanks.filter((variants, i) => {
    const given = normalizeBlank(value.blanks[i] ?? '');
    return given !== '' && variants.some((v) => normalizeBlank(v) === given);
  }).length;
  return round2(share * right);
}

/** Why a blanks answer does not fit, or null. */
export function blanksProblem(kind: string, content: FillBlankContent, value: AnswerValue): string | null {
  const wrong = wrongAnswerKind(kind, 'blanks', value);
  if (wrong || value.kind !== 'blanks') return wrong;
  return value.blanks.length <= content.blanks ? null : 'answer.blanks: more answers than blanks';
}
