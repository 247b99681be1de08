/**
 * A bank question as stored, for every part of the bank: a row read through the typed model, the columns an edit
 * writes, the snapshot the audit log keeps, and the reference check stored beside it.
 */
import { createHash } from 'node:crypto';
import {
  BankVerification,
  parseQuestion,
  QUESTION_KINDS,
  QUESTION_REGISTRY,
  type BankVerificationState,
  type QuestionBody,
  type QuestionExplanation,
} from '@examhall/contract';
import { z } from 'zod';
import { fail } from '../../errors.js';
import type { ServiceLog } from '../../log.js';
import type { BankQuestionRecord } from '../../repositories/bank.js';
import type { StaffActor } from '../access.js';
import { checkExplanation, checkQuestionBody, stemText, storedExplanation } from '../questionBody.js';
import { bodyOf } from '../storedQuestion.js';
import { unique } from './common.js';

/** The fields of a question create or update, validated. */
export interface BankQuestionInput {
  folder_id?: number | null | undefined;
  question: QuestionBody;
  /** Its explanation and feedback per option (null or absent: none). */
  explanation?: QuestionExplanation | null | undefined;
  difficulty: number;
  knowledge_points: string[];
  tags: string[];
  default_score: number;
}

/** A reference check as stored: the contract's, less `stale`, plus the digest of what was judged. */
export const StoredVerification = BankVerification.omit({ stale: true }).extend({ fingerprint: z.string() });
export type StoredVerification = z.infer<typeof StoredVerification>;

/** A JSON array of strings as stored, or [] when it is not one. */
export function stringList(json: string): string[] {
  try {
    const v: unknown = JSON.parse(json);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

/** Parsed JSON, or the text itself when it is not JSON (for audit snapshots of broken rows). */
function jsonOrText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Digest of everything a reference check judged: when it changes, the check is stale. */
export function fingerprint(body: QuestionBody): string {
  if (body.kind !== 'programming') return '';
  const { samples, time_limit_ms, memory_limit_mb } = body.content;
  const { checker, cases, reference } = body.key;
  return createHash('sha256')
    .update(JSON.stringify({ samples, time_limit_ms, memory_limit_mb, checker, cases, reference }))
    .digest('hex');
}

/**
 * A question's key for the audit log: hidden cases (megabytes) are summarized by count, size and digest,
 * which is enough to see that they changed.
 */
function auditKey(key: unknown): unknown {
  if (!key || typeof key !== 'object' || !Array.isArray((key as { cases?: unknown }).cases)) return key;
  const cases = (key as { cases: unknown[] }).cases;
  const json = JSON.stringify(cases);
  return {
    ...key,
    cases: {
      count: cases.length,
      bytes: Buffer.byteLength(json),
      sha256: createHash('sha256').update(json).digest('hex'),
    },
  };
}

/** A question as the audit log keeps it. */
export function questionSnapshot(r: BankQuestionRecord): Record<string, unknown> {
  return {
    id: r.id,
    team_id: r.team_id,
    folder_id: r.folder_id,
    kind: r.kind,
    difficulty: r.difficulty,
    knowledge_points: stringList(r.knowledge_points),
    tags: r.tags,
    default_score: r.default_score,
    revision: r.revision,
    content: jsonOrText(r.content),
    key: auditKey(jsonOrText(r.answer_key)),
    explanation: r.explanation ? jsonOrText(r.explanation) : null,
  };
}

/**
 * A stored row read through the typed model (never a cast): its kind must be one the registry knows with
 * the type id stored beside it, its content and key JSON that parses. Its body, or the first problem.
 */
export function readStored(
  r: BankQuestionRecord,
): { body: QuestionBody; problem: null } | { body: null; problem: string } {
  const kind = QUESTION_KINDS.find((k) => k === r.kind);
  if (!kind) return { body: null, problem: `kind: no question kind '${r.kind}'` };
  if (QUESTION_REGISTRY[kind].type !== r.type) {
    return { body: null, problem: `type: ${kind} questions are type ${QUESTION_REGISTRY[kind].type}, not ${r.type}` };
  }
  let content: unknown;
  let key: unknown;
  try {
    content = JSON.parse(r.content);
    key = JSON.parse(r.answer_key);
  } catch {
    return { body: null, problem: 'content or key: not valid JSON' };
  }
  const parsed = parseQuestion(kind, content, key);
  return parsed.ok ? { body: parsed.body, problem: null } : { body: null, problem: parsed.problems[0] ?? 'invalid' };
}

/** The typed body of a stored row; `question_invalid` naming the question and its first problem otherwise. */
export function parseStored(r: BankQuestionRecord, log: ServiceLog): QuestionBody {
  const read = readStored(r);
  if (read.problem !== null) {
    log.warn({ questionId: r.id, problem: read.problem }, 'stored bank question no longer parses');
  }
  return bodyOf({ id: r.id, ...read });
}

/** The typed body of an edit with its rich text sanitized; 422 with the path of the first problem otherwise. */
export function checkedBody(question: QuestionBody): QuestionBody {
  const checked = checkQuestionBody(question);
  if (checked.problem !== null) throw fail('validation_error', `question.${checked.problem}`);
  return checked.body;
}

/** An edit's explanation as the bank stores it (sanitized, fitting the body); 422 with its path otherwise. */
export function checkedExplanation(body: QuestionBody, input: BankQuestionInput): QuestionExplanation | null {
  const checked = checkExplanation(body, input.explanation);
  if (checked.problem !== null) throw fail('validation_error', checked.problem);
  return checked.explanation;
}

/** A stored question's explanation, or null. */
export const explanationOf = (r: { explanation: string | null }): QuestionExplanation | null =>
  storedExplanation(r.explanation);

/** The columns of an edited question (its explanation checked by checkedExplanation). */
export function columns(
  body: QuestionBody,
  explanation: QuestionExplanation | null,
  input: BankQuestionInput,
  actor: StaffActor,
  now: number,
) {
  return {
    kind: body.kind,
    type: QUESTION_REGISTRY[body.kind].type,
    stem_text: stemText(body),
    content: JSON.stringify(body.content),
    answer_key: JSON.stringify(body.key),
    explanation: explanation ? JSON.stringify(explanation) : null,
    difficulty: input.difficulty,
    knowledge_points: JSON.stringify(unique(input.knowledge_points)),
    default_score: input.default_score,
    editor_id: actor.id,
    updated_at: now,
  };
}

/** A stored reference check, or null when there is none (or it is unreadable). */
export function parseVerification(json: string | null): StoredVerification | null {
  if (!json) return null;
  try {
    const parsed = StoredVerification.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** A question's reference check as shown, stale when what it judged has changed since. */
export function verificationOf(r: { verification: string | null }, body: QuestionBody): BankVerification | null {
  const v = parseVerification(r.verification);
  if (!v || body.kind !== 'programming') return null;
  const { fingerprint: made, ...shown } = v;
  return { ...shown, stale: made !== fingerprint(body) };
}

/** Where a question's reference check stands. */
export function verificationState(r: { verification: string | null }, body: QuestionBody): BankVerificationState {
  const v = verificationOf(r, body);
  if (!v) return 'none';
  if (v.stale) return 'stale';
  return v.ok ? 'ok' : 'failed';
}
