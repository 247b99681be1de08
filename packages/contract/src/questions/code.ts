import { z } from 'zod';
import { RubricCriteria } from './text.js';
import { LANGUAGE_IDS, type LanguageId } from '../languages.js';
import type { AnswerValue } from '../schemas/answer.js';
import { report, round2, StemField, wrongAnswerKind } from './common.js';

/** Bounds of a programming question's limits; the defaults apply to rows stored without them. */
export const CODE_LIMITS = {
  timeMs: { min: 100, max: 10_000, default: 1000 },
  memoryMb: { min: 32, max: 1024, default: 256 },
  /** Most sample cases shown. */
  samples: 10,
  /** Most hidden cases. */
  cases: 200,
  /** Longest sample text, characters. */
  sampleChars: 10_000,
  /** Longest hidden case text (input or output), characters. */
  caseChars: 8_000_000,
  /** Longest source (starter, reference, custom checker), characters (an answer's limit). */
  sourceChars: 100_000,
} as const;

/** A language id of the judge. */
export const CodeLanguage = z.enum(LANGUAGE_IDS, { error: 'not a language the judge knows' });

/** Source text of starter code, a reference solution or a custom checker. */
const Source = z.string().max(CODE_LIMITS.sourceChars, `at most ${CODE_LIMITS.sourceChars} characters`);

/** The languages offered: at least one, each once. */
const Languages = z
  .array(CodeLanguage)
  .min(1, 'offer at least one language')
  .superRefine((ids, ctx) => {
    ids.forEach((id, i) => {
      if (ids.indexOf(id) !== i) report(ctx, [i], `${id} is listed twice`);
    });
  });

/** Starter code per offered language (optional per language). */
const Starter = z.partialRecord(CodeLanguage, Source);

/** A sample case shown to candidates. */
export const CodeSample = z.object({
  /** Standard input. */
  input: z.string().max(CODE_LIMITS.sampleChars, 'the sample input is too long'),
  /** Expected standard output. */
  output: z.string().max(CODE_LIMITS.sampleChars, 'the sample output is too long'),
});

/** Content of a programming question: statement, languages, starter code, samples and limits. */
export const ProgrammingContent = z.object({
  /** The statement (sanitized HTML). */
  stem: StemField,
  /** Languages a candidate may answer in. */
  languages: Languages,
  /** Starter code per language, shown in the editor before the candidate types. */
  starter: Starter.optional(),
  /** Sample cases shown with the statement (and run by "run"). */
  samples: z.array(CodeSample).max(CODE_LIMITS.samples, `at most ${CODE_LIMITS.samples} samples`).default([]),
  /** CPU time limit per case, ms. */
  time_limit_ms: z
    .number({ error: 'the time limit must be a number' })
    .int('the time limit is a whole number of ms')
    .min(CODE_LIMITS.timeMs.min, `at least ${CODE_LIMITS.timeMs.min} ms`)
    .max(CODE_LIMITS.timeMs.max, `at most ${CODE_LIMITS.timeMs.max} ms`)
    .default(CODE_LIMITS.timeMs.default),
  /** Memory limit, MB. */
  memory_limit_mb: z
    .number({ error: 'the memory limit must be a number' })
    .int('the memory limit is a whole number of MB')
    .min(CODE_LIMITS.memoryMb.min, `at least ${CODE_LIMITS.memoryMb.min} MB`)
    .max(CODE_LIMITS.memoryMb.max, `at most ${CODE_LIMITS.memoryMb.max} MB`)
    .default(CODE_LIMITS.memoryMb.default),
});
/** Content of a programming question. */
export type ProgrammingContent = z.infer<typeof ProgrammingContent>;

/** Content of a programming Q&A question: code read by a grader, never judged on hidden cases. */
export const ProgrammingQaContent = z.object({
  /** The question text (sanitized HTML). */
  stem: StemField,
  /** Languages a candidate may answer in. */
  languages: Languages,
  /** Starter code per language. */
  starter: Starter.optional(),
});
/** Content of a programming Q&A question. */
export type ProgrammingQaContent = z.infer<typeof ProgrammingQaContent>;

/** The judge's built-in checker names (see packages/judge/src/checkers): `float:EPS` and `float:ABS:REL` too. */
export const BUILTIN_CHECKERS = ['default', 'exact', 'lines', 'float'] as const;

/** True when a name is one the judge's parseChecker accepts. */
export function isBuiltinCheckerName(name: string): boolean {
  const [kind = '', ...rest] = name.split(':');
  if (kind === 'default' || kind === 'exact' || kind === 'lines') return rest.length === 0;
  if (kind !== 'float' || rest.length > 2) return false;
  return rest.every((n) => n.trim() !== '' && Number.isFinite(Number(n)) && Number(n) >= 0);
}

/** A checker of its own: a program that reads input, expected and actual output (see the judge). */
export const CustomChecker = z.object({
  /** Language of the checker. */
  language: CodeLanguage,
  /** Its source. */
  source: Source.min(1, 'the checker has no source'),
});
/** A custom checker. */
export type CustomChecker = z.infer<typeof CustomChecker>;

/** How outputs are compared: a built-in checker by name or a custom one. */
export const CheckerField = z.union([
  z
    .string()
    .refine(isBuiltinCheckerName, 'use default, exact, lines, float, float:EPS or float:ABS:REL, or a custom checker'),
  CustomChecker,
]);
/** How outputs are compared. */
export type CheckerField = z.infer<typeof CheckerField>;

/** A hidden test case: never leaves the server. */
export const CodeCase = z.object({
  /** Standard input. */
  input: z.string().max(CODE_LIMITS.caseChars, 'the case input is too long'),
  /** Expected standard output. */
  output: z.string().max(CODE_LIMITS.caseChars, 'the case output is too long'),
  /** Name shown to staff (e.g. the file name it came from). */
  name: z.string().max(200).optional(),
});
/** A hidden test case. */
export type CodeCase = z.infer<typeof CodeCase>;

/** A solution in one language. */
export const ReferenceSolution = z.object({
  /** Its language. */
  language: CodeLanguage,
  /** Its source. */
  source: Source.min(1, 'the reference solution is empty'),
});
/** A reference solution. */
export type ReferenceSolution = z.infer<typeof ReferenceSolution>;

/** Key of a programming question: the checker, the hidden cases and a reference solution. */
export const ProgrammingKey = z.object({
  /** How outputs are compared. */
  checker: CheckerField.default('default'),
  /** Hidden cases, at least one. */
  cases: z
    .array(CodeCase)
    .min(1, 'add at least one hidden case')
    .max(CODE_LIMITS.cases, `at most ${CODE_LIMITS.cases} hidden cases`),
  /** A solution the judge must accept on every case before the question can be used. */
  reference: ReferenceSolution.optional(),
});
/** Key of a programming question. */
export type ProgrammingKey = z.infer<typeof ProgrammingKey>;

/** Checks that starter code is only given for offered languages. */
function checkStarter(
  ctx: Parameters<typeof report>[0],
  content: { languages: LanguageId[]; starter?: Partial<Record<LanguageId, string>> | undefined },
): void {
  for (const id of Object.keys(content.starter ?? {}) as LanguageId[]) {
    if (!content.languages.includes(id)) report(ctx, ['content', 'starter', id], `${id} is not offered`);
  }
}

/** A programming question. */
export const ProgrammingBody = z
  .object({ kind: z.literal('programming'), content: ProgrammingContent, key: ProgrammingKey })
  .superRefine((b, ctx) => checkStarter(ctx, b.content));

/** Key of a programming Q&A question: the grader's rubric. */
export const ProgrammingQaKey = z.object({
  /** How to give points, for graders only. */
  rubric: z.string().max(100_000, 'the rubric is too long').optional(),
  /** Criteria scored one by one (their points are scaled to the question's points in the exam). */
  criteria: RubricCriteria.optional(),
});
/** Key of a programming Q&A question. */
export type ProgrammingQaKey = z.infer<typeof ProgrammingQaKey>;

/** A programming Q&A question. */
export const ProgrammingQaBody = z
  .object({ kind: z.literal('programming_qa'), content: ProgrammingQaContent, key: ProgrammingQaKey })
  .superRefine((b, ctx) => checkStarter(ctx, b.content));

/** Points of a programming question from its latest judged submit: the share of hidden cases passed. */
export function judgedScore(points: number, submit: { passed: number | null; total: number } | undefined): number {
  if (!submit || !submit.passed || submit.total <= 0) return 0;
  return round2((points * submit.passed) / submit.total);
}

/** Why a code answer does not fit, or null. */
export function codeProblem(kind: string, content: { languages: string[] }, value: AnswerValue): string | null {
  const wrong = wrongAnswerKind(kind, 'code', value);
  if (wrong || value.kind !== 'code') return wrong;
  return content.languages.includes(value.language) ? null : 'answer.language: not offered by this question';
}

/** The code content a candidate may see. */
export function codeView(c: ProgrammingQaContent) {
  return { stem: c.stem, languages: [...c.languages], ...(c.starter ? { starter: { ...c.starter } } : {}) };
}
