import { z } from 'zod';
import { QuestionType, type Section } from '../enums.js';
import type { AnswerValue } from '../schemas/answer.js';
import { FILL_BLANK, FillBlankBody } from './blank.js';
import {
  GRADIENT,
  GradientBody,
  INDEFINITE,
  IndefiniteBody,
  MULTIPLE,
  MultipleBody,
  SINGLE,
  SingleBody,
  TRUE_FALSE,
  TrueFalseBody,
} from './choice.js';
import { PROGRAMMING, PROGRAMMING_QA, ProgrammingBody, ProgrammingQaBody } from './code.js';
import { problemsOf, type CandidateContent, type QuestionProblem, type QuestionSpec } from './common.js';
import { LISTENING, ListeningBody, READING, ReadingBody } from './compound.js';
import { EVALUATION, EvaluationBody } from './evaluation.js';
import { QA, QaBody } from './text.js';

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
  type CandidateContent,
  type CandidateSub,
  type OptionIdValue,
  type QuestionProblem,
  type QuestionSpec,
  type ScoringMode,
} from './common.js';
export * from './compound.js';
export * from './evaluation.js';
export * from './text.js';

/** Every question kind: the 11 question types, with evaluation items apart from gradient ones. */
export const QUESTION_KINDS = [
  'single',
  'multiple',
  'indefinite',
  'fill_blank',
  'qa',
  'programming',
  'true_false',
  'programming_qa',
  'reading',
  'listening',
  'gradient',
  'evaluation',
] as const;
/** A question kind. */
export type QuestionKind = (typeof QUESTION_KINDS)[number];

/** A question kind as a schema field. */
export const QuestionKindField = z.enum(QUESTION_KINDS);

/** A typed question: `kind`, what candidates may see (`content`) and the secret `key`. */
export const QuestionBody = z.discriminatedUnion('kind', [
  SingleBody,
  MultipleBody,
  IndefiniteBody,
  FillBlankBody,
  QaBody,
  ProgrammingBody,
  TrueFalseBody,
  ProgrammingQaBody,
  ReadingBody,
  ListeningBody,
  GradientBody,
  EvaluationBody,
]);
/** A typed question. */
export type QuestionBody = z.infer<typeof QuestionBody>;
/** A typed question as an editor builds it (defaults not yet applied). */
export type QuestionBodyInput = z.input<typeof QuestionBody>;
/** The typed question of one kind. */
export type QuestionOf<K extends QuestionKind> = Extract<QuestionBody, { kind: K }>;

/** The registry entry of one kind, typed by its body. */
export type QuestionSpecOf<K extends QuestionKind> = QuestionSpec<K, QuestionOf<K>['content'], QuestionOf<K>['key']>;

/** Everything about each kind in one place: type id, sections, schemas, answer kind, scoring, candidate view. */
export const QUESTION_REGISTRY: { readonly [K in QuestionKind]: QuestionSpecOf<K> } = {
  single: SINGLE,
  multiple: MULTIPLE,
  indefinite: INDEFINITE,
  fill_blank: FILL_BLANK,
  qa: QA,
  programming: PROGRAMMING,
  true_false: TRUE_FALSE,
  programming_qa: PROGRAMMING_QA,
  reading: READING,
  listening: LISTENING,
  gradient: GRADIENT,
  evaluation: EVALUATION,
};

/** The registry entry of a body's kind, typed so that its content and key fit (one cast, here). */
function specOf<K extends QuestionKind>(body: QuestionOf<K>): QuestionSpecOf<K> {
  return QUESTION_REGISTRY[body.kind as K];
}

/** The kind of a stored question from its type id and its section (type 11 in evaluation: 'evaluation'). */
export function kindOfStored(type: number, section: Section): QuestionKind | null {
  if (section === 'evaluation') return type === QuestionType.gradient ? 'evaluation' : null;
  const found = QUESTION_KINDS.find((k) => k !== 'evaluation' && QUESTION_REGISTRY[k].type === type);
  return found ?? null;
}

/** Why a kind may not appear in a section, or null when it may. */
export function sectionProblem(kind: QuestionKind, section: Section): string | null {
  const spec = QUESTION_REGISTRY[kind];
  if (spec.sections.includes(section)) return null;
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

/** What candidates may see of a question. */
export function candidateView(body: QuestionBody): CandidateContent {
  return specOf(body).candidateView(body.content);
}
