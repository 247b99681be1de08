import { createHash } from 'node:crypto';
import type { AnswerBody } from '@examhall/contract';
import {
  ANSWER_FILE_MAX_BYTES,
  ExamPhase,
  KINDS,
  answerProblem,
  type UploadData,
  type AnswerReceipt,
  type AnswerValue,
} from '@examhall/contract';
import type { z } from 'zod';
import type { Db } from '../db/database.js';
import { GroupCommit, oneByOne, type ItemOutcome } from '../db/groupCommit.js';
import { fail } from '../errors.js';
import type { Candidate } from '../repositories/candidates.js';
import { AttemptRepository, type AttemptState } from '../repositories/attempts.js';
import type { AttemptService } from './attempts.js';
import type { CatalogQuestion } from './catalog.js';
import { FileRepository } from '../repositories/files.js';
import type { ObjectStore } from '../storage/objectStore.js';
import { isUnder } from './chain.js';
import { contentMatches } from '../storage/sniff.js';
import type { Upload } from './profile.js';
import { sanitizeRichText } from './richText.js';
import { bodyOf } from './storedQuestion.js';
import { NO_INSTRUMENTS, type Instruments } from '../ops/metrics.js';

type SaveInput = z.output<typeof AnswerBody>;

/** The fast save's check: the candidate's latest attempt at the exam, read where the change is written. */
interface Check {
  candidateId: number;
  examId: number;
  versionId: number;
}

/**
 * One change to commit: to an attempt checked already, or with the check to make inside the transaction
 * (the change then answers null when the attempt does not take it).
 */
interface Change {
  target: { attemptId: number } | Check;
  q: CatalogQuestion;
  body: ChangeBody;
  now: number;
}

/** One change of an answer as the candidate sends it: the value, an event, or both, with its client id and order. */
type ChangeBody = {
  answer?: AnswerValue | undefined;
  event?: number | undefined;
  client_id: string;
  seq: number;
  changed_at: number;
};

/** Files a Q&A answer may attach, by MIME type, with the extension they are stored under. */
const ANSWER_FILE_TYPES: Record<string, string> = {
  'image/png': '.png',
  'image/jpeg': '.jpg',
  'image/gif': '.gif',
  'image/webp': '.webp',
  'application/pdf': '.pdf',
  'text/plain': '.txt',
  'application/zip': '.zip',
  'application/msword': '.doc',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': '.docx',
};

/** What saving answers needs. */
export interface AnswerDeps {
  attempts: Pick<AttemptService, 'writable' | 'question' | 'holds'>;
  store: Pick<ObjectStore, 'put'>;
  clock: () => number;
  /** Group-commit batches of answer saves in flight at once (the dialect decides). */
  lanes: number;
  /** Where saves are counted (default: nowhere). */
  metrics?: Instruments;
}

/**
 * A running attempt's answers and their event log: every save committed (in group commits) before its receipt is
 * answered, retries answered with the first receipt, and the files a Q&A answer attaches. The questions are shown
 * by examQuestions.ts; the evaluation section (evaluationSection.ts) commits its answers here.
 */
export class AnswerService {
  private readonly commits: GroupCommit<Change, AnswerReceipt | null>;
  private readonly metrics: Instruments;

  constructor(
    private readonly db: Db,
    private readonly deps: AnswerDeps,
  ) {
    this.metrics = deps.metrics ?? NO_INSTRUMENTS;
    const one = (trx: Db, change: Change) => this.writeOne(trx, change);
    this.commits = new GroupCommit(
      db,
      AttemptRepository.multiRow(db) ? { one, batch: (trx, changes) => this.writeBatch(trx, changes) } : oneByOne(one),
      { lanes: deps.lanes },
    );
  }

  /** Where a Q&A answer's files live; an answer may only point at its own. */
  private filePrefix(attemptId: number, questionId: number): string {
    return `answers/${attemptId}/${questionId}/`;
  }

  /** Saves an answer of the linetest or major sections and/or records an answer event (of any section). */
  async save(c: Candidate, body: SaveInput): Promise<AnswerReceipt> {
    const receipt = (await this.saveFast(c, body)) ?? (await this.saveChecked(c, body));
    this.metrics.answerSaved();
    return receipt;
  }

  /**
   * The common case of a save in one transaction: a valid change (not rich text, which needs the attempt
   * for its file check and a sanitizer) to a question of a running attempt. Whether the attempt takes
   * writes is read inside the transaction that writes, so an attempt finished a moment before (timer,
   * proctor, another process) can no longer slip a write in between check and commit (on SQLite, where
   * the transaction holds the only writer). Anything else (an attempt not running, an invalid change)
   * returns null, and {@link saveChecked} answers it in the usual order of checks and errors.
   */
  private async saveFast(c: Candidate, body: SaveInput): Promise<AnswerReceipt | null> {
    // The question from memory (versions never change); whether it is the attempt's own is read with the
    // attempt's state in the transaction, so the save costs no extra round trip.
    const found = await this.deps.attempts.question(body.exam_id, body.subject_id);
    if (!found) return null;
    const { q, versionId } = found;
    if (q.section === 'evaluation' || body.answer?.kind === 'text') return null;
    if (body.answer && (!q.body || answerProblem(q.body, body.answer))) return null;
    const check = { candidateId: c.id, examId: body.exam_id, versionId };
    return this.commits.run({ target: check, q, body, now: this.deps.clock() });
  }

  /** Whether the attempt state read in the transaction takes this save: running, and the question its own. */
  private takes(state: AttemptState | undefined, check: Check, q: CatalogQuestion, now: number): state is AttemptState {
    const running = state?.phase === ExamPhase.exam && (state.end_at === null || state.end_at > now);
    return running && this.deps.attempts.holds(state, check.versionId, q.id);
  }

  /** A save with every check in order, each failing with its own code. */
  private async saveChecked(c: Candidate, body: SaveInput): Promise<AnswerReceipt> {
    const { attempt, bundle } = await this.deps.attempts.writable(c, body.exam_id);
    const q = bundle.byId.get(body.subject_id);
    if (!q) throw fail('not_found', 'no such question in this exam');
    // Evaluation items are answered through /ceping/answer; here they only take answer events.
    if (q.section === 'evaluation' && body.answer !== undefined)
      throw fail('not_found', 'evaluation items are answered through /ceping/answer');
    let answer = body.answer;
    if (answer?.kind === 'text') {
      if (answer.files.length > 0 && bundle.settings.is_upload_file !== 1)
        throw fail('validation_error', 'answer.files: this exam takes no files');
      await this.checkFiles(attempt.id, q.id, answer.files);
      answer = { ...answer, html: sanitizeRichText(answer.html) };
    }
    return this.commit(attempt.id, q, { ...body, answer });
  }

  /**
   * Refuses answer files other than those this attempt uploaded for this question: the key's form (its prefix,
   * no `..`) and the upload's record both have to agree, so a key never uploaded is refused too.
   */
  private async checkFiles(attemptId: number, questionId: number, files: readonly string[]): Promise<void> {
    const prefix = this.filePrefix(attemptId, questionId);
    const uploaded = await new FileRepository(this.db).keysOwnedBy('attempt', attemptId, files);
    for (const f of files) {
      if (!isUnder(f, prefix) || !uploaded.has(f))
        throw fail('validation_error', `answer.files: ${f.slice(0, 100)} is not a file uploaded for this answer`);
    }
  }

  /** Stores a file for a Q&A answer when the exam allows uploads. */
  async upload(c: Candidate, examId: number, subjectId: number, file: Upload): Promise<UploadData> {
    const { attempt, bundle } = await this.deps.attempts.writable(c, examId);
    const q = bundle.byId.get(subjectId);
    if (!q || KINDS.answerOfType(q.type) !== 'text') throw fail('not_found', 'no such Q&A question in this exam');
    if (bundle.settings.is_upload_file !== 1) throw fail('forbidden', 'this exam takes no files');
    const ext = ANSWER_FILE_TYPES[file.mime];
    if (!ext) throw fail('unsupported_media_type', 'file: images, PDF, text, ZIP and Word files only');
    if (file.data.length === 0) throw fail('validation_error', 'file: the file is empty');
    if (file.data.length > ANSWER_FILE_MAX_BYTES)
      throw fail('payload_too_large', `file: at most ${ANSWER_FILE_MAX_BYTES / 1024 / 1024} MB`);
    if (!contentMatches(file.mime, file.data))
      throw fail('unsupported_media_type', 'file: its content is not what its type says');
    const sha256 = createHash('sha256').update(file.data).digest('hex');
    const key = `${this.filePrefix(attempt.id, q.id)}${sha256}${ext}`;
    await this.deps.store.put(key, file.data);
    await new FileRepository(this.db).record({
      key,
      owner_kind: 'attempt',
      owner_id: attempt.id,
      file_name: file.fileName.slice(0, 200),
      mime: file.mime,
      size: file.data.length,
      sha256,
      created_at: this.deps.clock(),
    });
    return { key, file_name: file.fileName.slice(0, 200), size: file.data.length };
  }

  /**
   * Commits one change in a transaction and answers the receipt only after it: a retry with the same
   * client id returns the first receipt; a change older (lower seq) than the stored one is logged but never
   * overwrites it. Two statements in the common case: the conditional upsert and the log entry.
   */
  async commit(attemptId: number, q: CatalogQuestion, body: ChangeBody): Promise<AnswerReceipt> {
    if (body.answer) {
      const problem = answerProblem(bodyOf(q), body.answer);
      if (problem) throw fail('validation_error', problem);
    }
    return (await this.commits.run({ target: { attemptId }, q, body, now: this.deps.clock() }))!;
  }

  /** One change in the caller's transaction: the attempt's state checked first when the change asks for it. */
  private async writeOne(trx: Db, change: Change): Promise<AnswerReceipt | null> {
    const { target, q, body, now } = change;
    if ('attemptId' in target) return this.write(trx, target.attemptId, q, body, now);
    const state = await new AttemptRepository(trx).latestState(target.candidateId, target.examId);
    return this.takes(state, target, q, now) ? this.write(trx, state.id, q, body, now) : null;
  }

  /**
   * The changes of a batch in a few statements whatever their number (PostgreSQL): the attempts' states of
   * the changes that ask for a check in one read, then the changes in one write, in the same order and
   * with the same outcome as {@link writeOne} one after another. Changes of one answer or one client id go
   * in writes one after another, in the order they came.
   */
  private async writeBatch(trx: Db, changes: readonly Change[]): Promise<ItemOutcome<AnswerReceipt | null>[]> {
    const repo = new AttemptRepository(trx);
    const checks = changes.flatMap((ch) => ('attemptId' in ch.target ? [] : [ch.target]));
    const states = checks.length > 0 ? await repo.latestStates(checks) : new Map<string, AttemptState>();
    const attemptIds = changes.map(({ target, q, now }) => {
      if ('attemptId' in target) return target.attemptId;
      const state = states.get(`${target.candidateId}:${target.examId}`);
      return this.takes(state, target, q, now) ? state.id : null;
    });
    // Rounds: a change goes after the last earlier change of its answer or of its client id, and never before
    // an earlier change, so the event log keeps the order of arrival.
    const rounds: number[][] = [];
    const lastRound = new Map<string, number>();
    changes.forEach((ch, i) => {
      const attemptId = attemptIds[i];
      if (attemptId === null || attemptId === undefined) return;
      const keys = [`a:${attemptId}:${ch.q.id}`, `c:${attemptId}:${ch.body.client_id}`];
      const round = Math.max(rounds.length - 1, Math.max(...keys.map((k) => lastRound.get(k) ?? -1)) + 1);
      for (const k of keys) lastRound.set(k, round);
      (rounds[round] ??= []).push(i);
    });
    const out: ItemOutcome<AnswerReceipt | null>[] = changes.map(() => ({ value: null }));
    for (const round of rounds) {
      const written = await repo.writeChanges(
        round.map((i) => {
          const { q, body, now } = changes[i]!;
          return {
            attempt_id: attemptIds[i]!,
            question_id: q.id,
            client_id: body.client_id,
            seq: body.seq,
            event: body.event ?? null,
            value: body.answer ? JSON.stringify(body.answer) : null,
            changed_at: body.changed_at,
            received_at: now,
          };
        }),
      );
      round.forEach((i, k) => {
        const w = written[k]!;
        const { q, body, now } = changes[i]!;
        if (w.recorded) {
          out[i] = {
            value: { subject_id: q.id, client_id: body.client_id, seq: body.seq, version: w.version, saved_at: now },
          };
          return;
        }
        // Recorded by a save committed while this one ran: the batch is written again one change at a time.
        if (!w.first) throw new Error('client id recorded meanwhile');
        out[i] =
          w.first.question_id === q.id
            ? { value: this.firstReceipt(q.id, body.client_id, w.first) }
            : { error: fail('conflict', 'client_id: already used for another question') };
      });
    }
    return out;
  }

  /** The receipt of a change already recorded under this client id (a retry). */
  private firstReceipt(
    questionId: number,
    clientId: string,
    first: { seq: number; version: number; received_at: number },
  ): AnswerReceipt {
    return {
      subject_id: questionId,
      client_id: clientId,
      seq: first.seq,
      version: first.version,
      saved_at: first.received_at,
    };
  }

  /** The writes of one change inside the caller's transaction; the receipt (the first one on a retry). */
  private async write(
    trx: Db,
    attemptId: number,
    q: CatalogQuestion,
    body: ChangeBody,
    now: number,
  ): Promise<AnswerReceipt> {
    const repo = new AttemptRepository(trx);
    const value = body.answer ? JSON.stringify(body.answer) : null;
    const applied =
      value === null
        ? null
        : await repo.applyAnswer({ attempt_id: attemptId, question_id: q.id, value, seq: body.seq, saved_at: now });
    const version = applied ?? (await repo.version(attemptId, q.id));
    const event = {
      attempt_id: attemptId,
      question_id: q.id,
      client_id: body.client_id,
      seq: body.seq,
      event: body.event ?? null,
      value,
      version,
      changed_at: body.changed_at,
      received_at: now,
    };
    if (await repo.addEvent(event))
      return { subject_id: q.id, client_id: body.client_id, seq: body.seq, version, saved_at: now };
    // A retry: answer the first receipt. Its seq was stored already, so the upsert above changed nothing.
    const seen = (await repo.eventByClientId(attemptId, body.client_id))!;
    if (seen.question_id !== q.id) throw fail('conflict', 'client_id: already used for another question');
    return this.firstReceipt(q.id, body.client_id, seen);
  }
}
