/**
 * Candidates' pages taking camera pictures through a fault, with the exam page's rule for a failed one: a failure
 * that means "not now" (no answer, or a 5xx) keeps the picture and it is uploaded and recorded again later, oldest
 * first; a refusal (4xx) drops it. What counts is the records acknowledged: each must be stored, with its object.
 */
import { createHash, randomUUID } from 'node:crypto';
import { flatPhoto } from '../bench/facePhotos.js';
import type { Db } from '../db/database.js';
import { attemptPrefix } from '../services/chain.js';
import type { ObjectStore } from '../storage/objectStore.js';
import { ApiFailure, apiCall, type ExamCandidate } from './cluster.js';

/** A picture waiting to be uploaded and recorded. */
interface Picture {
  clientId: string;
  key: string;
  bytes: Buffer;
  sha256: string;
  triggerTime: number;
}

/** Options of the load. */
export interface PictureLoadOptions {
  bases: () => readonly string[];
  examId: number;
  candidates: readonly ExamCandidate[];
  /** Where pages upload (the store as browsers reach it). */
  store: ObjectStore;
  /** Pause between a candidate's pictures, ms. */
  everyMs: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const picture = flatPhoto(64, 48);
const pictureSha = createHash('sha256').update(picture).digest('hex');

/** A running load of pictures. */
export class PictureLoad {
  /** Client ids of the pictures whose record was acknowledged, with their keys. */
  readonly acknowledged = new Map<string, string>();
  /** Pictures refused for good (a 4xx): lost. */
  readonly refused: string[] = [];
  /** Pictures kept at some point for a later try. */
  kept = 0;
  /** Failures seen, by kind (`status code`), for the report. */
  readonly failures = new Map<string, number>();
  private running = true;
  private readonly queues: Picture[][];
  private readonly loops: Promise<void>[];

  constructor(private readonly o: PictureLoadOptions) {
    this.queues = o.candidates.map(() => []);
    this.loops = o.candidates.map((c, i) => this.candidate(c, i));
  }

  /** Pictures still waiting in the pages. */
  get waiting(): number {
    return this.queues.reduce((n, q) => n + q.length, 0);
  }

  private note(kind: string): void {
    this.failures.set(kind, (this.failures.get(kind) ?? 0) + 1);
  }

  /** Uploads and records one picture; answers false when it must wait for a later try. */
  private async deliver(c: ExamCandidate, base: string, p: Picture): Promise<boolean> {
    try {
      await this.o.store.put(p.key, p.bytes);
    } catch {
      this.note('upload: no answer from the store');
      return false;
    }
    try {
      await apiCall(base, 'POST', '/monitor/capture', {
        token: c.token,
        ip: c.ip,
        body: {
          exam_id: this.o.examId,
          kind: 'frame',
          key: p.key,
          sha256: p.sha256,
          trigger_time: p.triggerTime,
          client_id: p.clientId,
        },
      });
      this.acknowledged.set(p.clientId, p.key);
      return true;
    } catch (err) {
      if (err instanceof ApiFailure) {
        this.note(`record: ${err.status} ${err.code ?? ''}`);
        if (err.status >= 500) return false;
        this.refused.push(p.clientId);
        return true;
      }
      this.note('record: no answer from the server');
      return false;
    }
  }

  private async candidate(c: ExamCandidate, i: number): Promise<void> {
    const queue = this.queues[i]!;
    let turn = i;
    for (;;) {
      if (this.running) {
        const clientId = randomUUID();
        queue.push({
          clientId,
          key: `${attemptPrefix({ id: c.attemptId, exam_id: this.o.examId })}frame/${Date.now()}-${clientId.slice(0, 8)}.png`,
          bytes: picture,
          sha256: pictureSha,
          triggerTime: Date.now(),
        });
      } else if (queue.length === 0) return;
      // Oldest first; the first that must wait holds the rest back, as the page's offline pictures do.
      while (queue.length > 0) {
        const all = this.o.bases();
        if (!(await this.deliver(c, all[turn++ % all.length]!, queue[0]!))) {
          this.kept += 1;
          break;
        }
        queue.shift();
      }
      await sleep(this.o.everyMs * (0.5 + Math.random()));
    }
  }

  /** The failures seen, most frequent first. */
  failureKinds(): string {
    return [...this.failures.entries()]
      .sort((a, b) => b[1] - a[1])
      .map(([what, n]) => `${n}x ${what}`)
      .join('; ');
  }

  /** Stops taking pictures and waits until every kept one is delivered (or `giveUpMs` passes). */
  async stop(giveUpMs: number): Promise<void> {
    this.running = false;
    await Promise.race([Promise.all(this.loops), sleep(giveUpMs)]);
  }
}

/** Of the acknowledged pictures: how many have their record and object, and what is missing of the others. */
export async function picturesFound(
  db: Db,
  store: ObjectStore,
  acknowledged: ReadonlyMap<string, string>,
): Promise<{ found: number; noRecord: number; otherKey: number; noObject: number }> {
  const rows = await db.selectFrom('risk_records').select(['client_id', 'image_key']).execute();
  const keyOf = new Map(rows.map((r) => [r.client_id, r.image_key]));
  const out = { found: 0, noRecord: 0, otherKey: 0, noObject: 0 };
  for (const [clientId, key] of acknowledged) {
    if (!keyOf.has(clientId)) out.noRecord += 1;
    else if (keyOf.get(clientId) !== key) out.otherKey += 1;
    else if (!(await store.head(key))) out.noObject += 1;
    else out.found += 1;
  }
  return out;
}
