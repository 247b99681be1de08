import {
  kindOfStored,
  parseQuestion,
  QUESTION_KINDS,
  QUESTION_REGISTRY,
  sectionProblem,
  type QuestionBody,
  type QuestionKind,
  type Section,
} from '@examhall/contract';
import { fail } from '../errors.js';

/** The columns of a stored question that make its typed body. */
export interface StoredQuestionRow {
  id: number;
  /** '' for a row stored before kinds (or of no kind): derived from type and section. */
  kind: string;
  type: number;
  content: string;
  answer_key: string;
}

/** A stored question read through the typed model: its body, or the first problem that stops it parsing. */
export type ReadQuestion =
  | { kind: QuestionKind; body: QuestionBody; problem: null }
  | { kind: QuestionKind | null; body: null; problem: string };

/** Text stored as JSON, or a problem naming the column. */
function json(text: string, column: string): { value: unknown } | { problem: string } {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return { problem: `${column}: not valid JSON` };
  }
}

/**
 * Reads a stored question with the contract's schemas (never a cast): its kind (the column, or derived from
 * type and section for rows stored before it), that kind's fit with the type id and the section, then content
 * and key. A row that does not parse is answered with its first problem instead of throwing, so one broken
 * question does not take its exam down; using it fails with question_invalid (see bodyOf).
 */
export function readStoredQuestion(row: StoredQuestionRow, section: Section): ReadQuestion {
  const kind = row.kind === '' ? kindOfStored(row.type, section) : QUESTION_KINDS.find((k) => k === row.kind);
  if (!kind) return { kind: null, body: null, problem: `kind: no question kind '${row.kind}' of type ${row.type}` };
  if (QUESTION_REGISTRY[kind].type !== row.type)
    return {
      kind,
      body: null,
      problem: `type: ${kind} questions are type ${QUESTION_REGISTRY[kind].type}, not ${row.type}`,
    };
  const misplaced = sectionProblem(kind, section);
  if (misplaced) return { kind, body: null, problem: `section: ${misplaced}` };
  const content = json(row.content, 'content');
  if ('problem' in content) return { kind, body: null, problem: content.problem };
  const key = json(row.answer_key, 'key');
  if ('problem' in key) return { kind, body: null, problem: key.problem };
  const parsed = parseQuestion(kind, content.value, key.value);
  return parsed.ok
    ? { kind, body: parsed.body, problem: null }
    : { kind, body: null, problem: parsed.problems[0] ?? 'does not parse' };
}

/** The typed body of a question read from storage, or question_invalid naming the question and its problem. */
export function bodyOf(q: { id: number; body: QuestionBody | null; problem: string | null }): QuestionBody {
  if (q.body) return q.body;
  throw fail('question_invalid', `question ${q.id} no longer fits its type: ${q.problem ?? 'unknown problem'}`);
}
