/**
 * Candidates saving answers as the exam page does through a fault: one change at a time per candidate, each with its
 * client id, sent again (same id) until a receipt comes back, alternating between the API processes. What counts is
 * the receipts: every change acknowledged must be in the database afterwards.
 */
import { randomUUID } from 'node:crypto';
import { KINDS } from '@examhall/contract';
import type { Db } from '../db/database.js';
import { apiCall, type ExamCandidate } from './cluster.js';

/** A single-answer choice question with its option ids. */
export interface Choice {
  id: number;
  options: string[];
}

/** The choice questions of the exam's first two sections, as a candidate's page reads them. */
export async function choiceQuestions(base: string, examId: number, token: string): Promise<Choice[]> {
  const found: Choice[] = [];
  for (const section of ['linetest', 'major']) {
    const shown = await apiCall<{ list: { subject: { id: number; type: number; options?: { id: string }[] } }[] }>(
      base,
      'GET',
      `/subject/show-section?exam_id=${examId}&section=${section}`,
      { token },
    );
    for (const { subject } of shown.list) {
      if (KINDS.answerOfType(subject.type) === 'choice' && subject.options?.length)
        found.push({ id: subject.id, options: subject.options.map((o) => o.id) });
    }
  }
  if (found.length === 0) throw new Error('the exam has no choice question');
  return found;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Options of the load. */
export interface AnswerLoadOptions {
  /** The API processes' origins the candidates alternate between (a dead one stays: clients do not know). */
  bases: () => readonly string[];
  examId: number;
  candidates: readonly ExamCandidate[];
  choices: readonly Choice[];
  /** Pause between a candidate's changes, ms. */
  everyMs: number;
  /** A change still without a receipt after this long fails the run, ms. */
  giveUpMs: number;
}

/** A running load. */
export class AnswerLoad {
  /** Client ids of the changes that got a receipt. */
  readonly acknowledged = new Set<string>();
  /** Sends that failed and were made again (same client id). */
  retries = 0;
  /** Changes that never got a receipt within `giveUpMs`. */
  readonly unacknowledged: string[] = [];
  /** Sample failures seen on the way (what a candidate's page would have shown as "saving..."). */
  readonly failures = new Map<string, number>();
  private running = true;
  private readonly loops: Promise<void>[];

  constructor(private readonly o: AnswerLoadOptions) {
    this.loops = o.candidates.map((c, i) => this.candidate(c, i));
  }

  private async candidate(c: ExamCandidate, i: number): Promise<void> {
    let seq = 0;
    let turn = i;
    while (this.running) {
      seq += 1;
      const q = this.o.choices[(i + seq) % this.o.choices.length]!;
      const body = {
        exam_id: this.o.examId,
        subject_id: q.id,
        answer: { kind: 'choice', option: q.options[seq % q.options.length] },
        client_id: randomUUID(),
        seq,
        changed_at: Date.now(),
      };
      const since = Date.now();
      for (;;) {
        const bases = this.o.bases();
        const base = bases[turn++ % bases.length]!;
        try {
          const receipt = await apiCall<{ client_id: string; version: number }>(base, 'POST', '/answer/answer', {
            token: c.token,
            ip: c.ip,
            body,
          });
          if (receipt.client_id !== body.client_id) throw new Error('a receipt for another change');
          this.acknowledged.add(body.client_id);
          break;
        } catch (err) {
          const what = String((err as Error).cause ?? err).slice(0, 120);
          this.failures.set(what, (this.failures.get(what) ?? 0) + 1);
          if (Date.now() - since > this.o.giveUpMs) {
            this.unacknowledged.push(body.client_id);
            break;
          }
          this.retries += 1;
          await sleep(100 + Math.random() * 200);
        }
      }
      await sleep(this.o.everyMs * (0.5 + Math.random()));
    }
  }

  /** The failures seen, most frequent first (e.g. `503 ...` or a refused connection), for the report. */
  failureKinds(top = 3): string {
    return [...this.failures.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([what, n]) => `${n}x ${what}`)
      .join('; ');
  }

  /** Stops making changes and waits for the ones under way to be acknowledged (or given up). */
  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
  }
}

/** How many of the acknowledged changes the answer log holds (every change is appended there once). */
export async function answersFound(db: Db, acknowledged: ReadonlySet<string>): Promise<number> {
  const rows = await db.selectFrom('answer_events').select('client_id').execute();
  return rows.filter((r) => acknowledged.has(r.client_id)).length;
}
