/**
 * The question kinds: one file each in this folder, listed once below. Every list, order and lookup over kinds
 * (the kinds' names, the body schema, the display order, the sub-question types, which kinds shuffle or are code)
 * is derived here from the kinds' own entries, so adding a kind is a file here and its line in the list.
 */
import type { z } from 'zod';
import type { Section } from '../../enums.js';
import type { AnswerKind, AnyQuestionSpec, KindExample } from '../common.js';
import { subQuestions, type SubQuestions } from '../compound.js';
import { evaluation, evaluationExamples } from './evaluation.js';
import { fillBlank, fillBlankExamples } from './fillBlank.js';
import { gradient, gradientExamples } from './gradient.js';
import { indefinite, indefiniteExamples } from './indefinite.js';
import { listening, listeningExamples } from './listening.js';
import { multiple, multipleExamples } from './multiple.js';
import { programming, programmingExamples } from './programming.js';
import { programmingQa, programmingQaExamples } from './programmingQa.js';
import { qa, qaExamples } from './qa.js';
import { reading, readingExamples } from './reading.js';
import { single, singleExamples } from './single.js';
import { trueFalse, trueFalseExamples } from './trueFalse.js';

/** The kinds that stand on their own, in type order (a kind of a shared type after the one it shares it with). */
export const SIMPLE_KINDS = [
  single,
  multiple,
  indefinite,
  fillBlank,
  qa,
  programming,
  trueFalse,
  programmingQa,
  gradient,
  evaluation,
] as const;

/** The kinds made of sub-questions, each built over the kinds that may be one. */
export const compoundKinds = <T extends number>(subs: SubQuestions<T>) => [reading(subs), listening(subs)] as const;

/** What reading and listening questions know of their sub-questions: every simple kind with `sub`. */
export const SUB_QUESTIONS = subQuestions(SIMPLE_KINDS);

/** Every kind's entry. */
export const KIND_SPECS = [...SIMPLE_KINDS, ...compoundKinds(SUB_QUESTIONS)] as const;

/** Lists and lookups derived from a set of kinds (the product's own, or a test's with a kind added). */
export interface KindIndex<S extends AnyQuestionSpec = AnyQuestionSpec> {
  /** The kinds' names, by type id (a kind sharing a type with another after it). */
  kinds: readonly S['kind'][];
  /** Each kind's entry by name. */
  byKind: ReadonlyMap<string, S>;
  /** The order in which a section shows its questions' types. */
  displayOrder: readonly number[];
  /** Type ids a reading or listening question's sub-questions may have, ascending. */
  subTypes: readonly number[];
  /** Kinds whose options each candidate sees in an order of their own. */
  shuffled: ReadonlySet<string>;
  /** Kinds whose answers are source code. */
  code: readonly string[];
  /** The kind of a stored question from its type id and its section, or null. */
  kindOfStored(type: number, section: Section): S['kind'] | null;
  /** The kind candidates know a type id by (of kinds sharing a type, the first by the list's order), or null. */
  kindOfType(type: number): S['kind'] | null;
  /** The answer a type id takes (kinds sharing a type take the same), or null for an unknown type. */
  answerOfType(type: number): AnswerKind | null;
  /** Whether a type id's kind is scored by the judge (a candidate may submit code for it). */
  judged(type: number): boolean;
}

/** Derives every list and lookup over kinds from their entries. */
export function kindIndex<S extends AnyQuestionSpec>(specs: readonly S[]): KindIndex<S> {
  const ordered = [...specs].sort((a, b) => a.type - b.type);
  const byType = new Map<number, S>();
  for (const s of ordered) if (!byType.has(s.type)) byType.set(s.type, s);
  return {
    kinds: ordered.map((s) => s.kind),
    byKind: new Map(specs.map((s) => [s.kind, s])),
    displayOrder: [...byType.values()].sort((a, b) => a.displayOrder - b.displayOrder).map((s) => s.type),
    subTypes: [...new Set(ordered.filter((s) => s.sub).map((s) => s.type))],
    shuffled: new Set(specs.filter((s) => s.shuffleOptions).map((s) => s.kind)),
    code: specs.filter((s) => s.code).map((s) => s.kind),
    kindOfType: (type) => byType.get(type)?.kind ?? null,
    answerOfType: (type) => byType.get(type)?.answer ?? null,
    judged: (type) => byType.get(type)?.scoring === 'judge',
    kindOfStored(type, section) {
      const found = ordered.find((s) => s.type === type && s.sections.includes(section));
      return found?.kind ?? null;
    },
  };
}

/** The product's kinds, indexed. */
export const KINDS = kindIndex<(typeof KIND_SPECS)[number]>(KIND_SPECS);

/** The body schemas of a list of kinds, as a tuple of the same length (for the discriminated union). */
export type BodySchemas<T extends readonly AnyQuestionSpec[]> = { -readonly [I in keyof T]: T[I]['body'] };

/** The schema of a question of any of the kinds given. */
export function bodySchemaOf<T extends readonly AnyQuestionSpec[]>(specs: T) {
  return specs.map((s) => s.body) as unknown as BodySchemas<T> & [z.ZodType, ...z.ZodType[]];
}

/** Each kind's examples, by name: called only where they are used (tests, the demo exam), never by the exam page. */
const EXAMPLES: { readonly [K in (typeof KIND_SPECS)[number]['kind']]: () => KindExample<unknown, unknown>[] } = {
  single: singleExamples,
  multiple: multipleExamples,
  indefinite: indefiniteExamples,
  fill_blank: fillBlankExamples,
  qa: qaExamples,
  programming: programmingExamples,
  true_false: trueFalseExamples,
  programming_qa: programmingQaExamples,
  gradient: gradientExamples,
  evaluation: evaluationExamples,
  reading: readingExamples,
  listening: listeningExamples,
};

/** A kind's example, typed by the kind's content and key. */
type ExampleOf<K extends (typeof KIND_SPECS)[number]['kind']> =
  Extract<(typeof KIND_SPECS)[number], { kind: K }> extends infer S extends AnyQuestionSpec
    ? KindExample<z.output<S['content']>, z.output<S['key']>>
    : never;

/** A kind's complete example questions, the first the plainest. */
export function kindExamples<K extends (typeof KIND_SPECS)[number]['kind']>(kind: K): ExampleOf<K>[] {
  return EXAMPLES[kind]() as ExampleOf<K>[];
}
