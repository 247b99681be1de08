/**
 * How the exporters map question kinds: each format has one table of writers keyed by kind. A kind the table leaves
 * out is one the format cannot carry, so a kind added to the contract is exported where a format has a writer for it
 * and reported as not exported (naming the format and the kind) everywhere else, with no edit here.
 */
import type { QuestionBody, QuestionKind, QuestionOf } from '@examhall/contract';
import { problem } from '../problems.js';
import type { Draft, Problem } from '../types.js';

/** Why a question cannot be written in a format. */
export interface NotWritten {
  why: string;
}

/**
 * How a format writes a question of one kind (with what the format's writer passes along, `ctx`): what it writes,
 * or why this question cannot be written.
 */
export type KindWriter<K extends QuestionKind, Out, Ctx = void> = (
  q: QuestionOf<K>,
  d: Draft,
  ctx: Ctx,
) => Out | NotWritten;

/** A format's writers by kind; a kind left out is one the format has no question type for. */
export type KindWriters<Out, Ctx = void> = { readonly [K in QuestionKind]?: KindWriter<K, Out, Ctx> };

/** The reason given for a kind a format has no writer for, unless the format gives its own. */
export const noSuchType = (format: string): string => `${format} has no such question type`;

/**
 * Writes a draft with its kind's writer, or says why not: `absent` when the table has no writer for the kind (a
 * kind the format cannot carry, or one the contract added after the table was written).
 */
export function writeKind<Out, Ctx = void>(
  writers: KindWriters<Out, Ctx>,
  d: Draft,
  absent: string,
  ...[ctx]: Ctx extends void ? [] : [ctx: Ctx]
): Out | NotWritten {
  const kind: string = d.question.kind;
  if (!Object.hasOwn(writers, kind)) return { why: absent };
  const write = writers[kind as QuestionKind] as KindWriter<QuestionBody['kind'], Out, Ctx> | undefined;
  return write ? write(d.question, d, ctx as Ctx) : { why: absent };
}

/** The warning for the draft at `index` (from 0) that a format leaves out, located as `question[n]`. */
export function notExported(index: number, kind: string, format: string, detail: string): Problem {
  return problem({ element: `question[${index + 1}]` }, 'not_exported', 'warning', { kind, format, detail });
}
