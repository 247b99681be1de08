import { z } from 'zod';
import type { QuestionType, Section } from '../enums.js';
import type { AnswerValue } from '../schemas/answer.js';
import {
  problemsOf,
  type AnyQuestionSpec,
  type CandidateContent,
  type KindResponses,
  type QuestionProblem,
} from './common.js';
import { bodySchemaOf, KIND_SPECS, KINDS } from './kinds/index.js';

export * from './blank.js';
export * from './choice.js';
export * from './code.js';
export {
  OPTION_COUNT,
  OPTION_IDS,
  OptionIdField,
  OptionPoints,
  OptionScores,
  RICH_TEXT_MAX,
  StemField,
  ChoiceOption,
  ChoiceOptions,
  letterOptions,
  optionList,
  problemsOf,
  type AnswerKind,
  type AnyQuestionSpec,
  type CandidateContent,
  type CandidateSub,
  type KindExample,
  type KindResponses,
  type OptionIdValue,
  type QuestionProblem,
  type QuestionSpec,
  type ScoringMode,
} from './common.js';
export * from './compound.js';
export * from './evaluation.js';
export * from './explanation.js';
export * from './text.js';
export {
  compoundKinds,
  KIND_SPECS,
  kindExamples,
  kindIndex,
  KINDS,
  SIMPLE_KINDS,
  SUB_QUESTIONS,
  type KindIndex,
} from './kinds/index.js';

/** Every kind's entry, whatever its kind. */
type KindSpec = (typeof KIND_SPECS)[number];

/** A question kind. */
export type QuestionKind = KindSpec['kind'];

/** Every question kind: the 11 question types by id, with evaluation items apart from gradient ones. */
export const QUESTION_KINDS = KINDS.kinds as readonly [QuestionKind, ...QuestionKind[]];

/** A question kind as a schema field. */
export const QuestionKindField = z.enum(QUESTION_KINDS);

/** The order in which question types are shown to the candidate within a section (from the kinds' displayOrder). */
export const QUESTION_TYPE_DISPLAY_ORDER = KINDS.displayOrder as readonly QuestionType[];

/** Types that may appear as sub-questions of a reading (9) or listening (10) question (the kinds with `sub`). */
export const SUB_QUESTION_TYPES = KINDS.subTypes as readonly QuestionType[];

/** The whole typed question of each kind. */
type BodyOf<S> = S extends KindSpec
  ? { kind: S['kind']; content: z.output<S['content']>; key: z.output<S['key']> }
  : never;

/** A typed question: `kind`, what candidates may see (`content`) and the secret `key`. */
export const QuestionBody = z.discriminatedUnion('kind', bodySchemaOf(KIND_SPECS));
/** A typed question. */
export type QuestionBody = BodyOf<KindSpec>;
/** A typed question as an editor builds it (defaults not yet applied). */
export type QuestionBodyInput = z.input<typeof QuestionBody>;
/** The typed question of one kind. */
export type QuestionOf<K extends QuestionKind> = Extract<QuestionBody, { kind: K }>;

/** The entry of one kind, with its own content and key types. */
export type QuestionSpecOf<K extends QuestionKind> = Extract<KindSpec, { kind: K }>;

/** Everything about each kind by name (each kind's file in kinds/). */
export const QUESTION_REGISTRY = Object.fromEntries(KIND_SPECS.map((s) => [s.kind, s])) as {
  readonly [K in QuestionKind]: QuestionSpecOf<K>;
};

/** The registry entry of a body's kind, typed so that its content and key fit (one cast, here). */
function specOf(body: QuestionBody): AnyQuestionSpec {
  return QUESTION_REGISTRY[body.kind];
}

/** The kind of a stored question from its type id and its section (type 11 in evaluation: 'evaluation'). */
export function kindOfStored(type: number, section: Section): QuestionKind | null {
  return KINDS.kindOfStored(type, section);
}

/** The kinds a section may hold, by type id. */
export function kindsIn(section: Section): QuestionKind[] {
  return QUESTION_KINDS.filter((k) => sectionProblem(k, section) === null);
}

/** Why a kind may not appear in a section, or null when it may. */
export function sectionProblem(kind: QuestionKind, section: Section): string | null {
  const spec = QUESTION_REGISTRY[kind];
  if ((spec.sections as readonly Section[]).includes(section)) return null;
  return section === 'evaluation'
    ? 'the evaluation section holds evaluation items only'
    : `${kind} questions belong in the ${spec.sections.join(' or ')} section`;
}

/** The outcome of parsing a question: the typed body, or its problems as `path: message`. */
export type ParsedQuestion = { ok: true; body: QuestionBody } | { ok: false; problems: QuestionProblem[] };

/** Parses a question of a kind from its content and key (as stored or as an editor sends them). */
export function parseQuestion(kind: string, content: unknown, key: unknown): ParsedQuestion {
  const parsed = QuestionBody.safeParse({ kind, content, key });
  if (parsed.success) return { ok: true, body: parsed.data };
  return { ok: false, problems: problemsOf(parsed.error) };
}

/** Points of an answer (see QuestionSpec.score): null when the kind is scored by a grader or the judge. */
export function scoreQuestion(body: QuestionBody, value: AnswerValue | null, points: number): number | null {
  return specOf(body).score(body, value, points);
}

/** Why an answer does not fit its question, or null. */
export function answerProblem(body: QuestionBody, value: AnswerValue): string | null {
  return specOf(body).answerProblem(body.content, value);
}

/** What item analysis counts of a question's answers: its options and those the key holds, or null. */
export function itemResponses(body: QuestionBody): KindResponses | null {
  return specOf(body).responses(body);
}

/** What candidates may see of a question. */
export function candidateView(body: QuestionBody): CandidateContent {
  return specOf(body).candidateView(body.content);
}
