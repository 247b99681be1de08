import { createHash, randomInt } from 'node:crypto';
import { describeDetail, detail, RISK_EVENTS, riskCategoryOf, type RiskEventId } from '@examhall/contract';
import type { Db } from '../db/database.js';
import { AppError } from '../errors.js';
import { FaceCheckRepository, type FaceCheckRow } from '../repositories/faceChecks.js';
import type { ObjectStore } from '../storage/objectStore.js';
import type { AttemptService } from './attempts.js';
import type { FaceAssessment, FaceCheckService } from './faceCheck.js';
import type { ServiceLog } from '../log.js';
import type { RiskService } from './risk.js';

/** A face finding by its detail kind: what the browser's monitor and the server's check both name. */
export type FaceFindingKind = 'noFace' | 'faces' | 'faceMismatch' | 'phoneSeen';

const FINDING_KINDS: readonly string[] = ['noFace', 'faces', 'faceMismatch', 'phoneSeen'];

/** Risk events a face finding is raised as: camera abnormal (no, several, another face) and phone use. */
const FACE_RISKS: readonly number[] = [RISK_EVENTS.firstCameraAbnormal.id, RISK_EVENTS.phoneUse.id];

/** Checks taken at a time (the pool's queue bounds how many run at once). */
export const FACE_CHECK_BATCH = 8;
/**
 * How long one sweep keeps taking batches while checks are waiting. The sweep runs every 2 s; one batch a run
 * (4 checks a second) fell behind the sample of 2,000 candidates' frames (about 7 a second at one in ten of a frame
 * every 30 s), and the queue then only grew. The worker runs the sweep at its low priority, so the candidates' calls
 * still come first.
 */
export const FACE_SWEEP_BUDGET_MS = 10_000;
/**
 * A sampled frame still unchecked this long after it was taken is skipped: the sample looks for what no browser
 * raised while the exam runs, and a queue of old samples would only delay the flags and the fresh frames. A
 * browser's flag is never skipped.
 */
export const FACE_SAMPLE_STALE_MS = 10 * 60_000;
/** How long a checker holds a check before another process may take it. */
export const FACE_CHECK_LEASE_MS = 60_000;
/** Tries before a check whose picture cannot be had is given up (it is marked failed). */
export const FACE_CHECK_MAX_TRIES = 5;

/** The settings of the service. */
export interface FaceVerificationOptions {
  /** About one in this many frames the browser did not flag is checked; 0 checks none. */
  sampleEvery: number;
  clock: () => number;
  log: ServiceLog;
  /** Draws the sample: an integer in [0, n) (crypto by default, so a browser cannot tell which frames are checked). */
  draw?: (n: number) => number;
}

/**
 * The server's half of face monitoring during the exam (docs/contract.md#face-monitoring). The candidate's browser
 * reads every camera frame with the face models and raises a risk record naming the frame when it sees a problem;
 * the server checks those frames with its own engine (`flagged`) and about one in `sampleEvery` of the others
 * (`frameRecorded`), so its cost per candidate is a few checks an hour, not one per frame. The checks are queued in
 * a table and done by a periodic sweep (`sweep`, once per period across the cluster; a lease keeps two processes
 * from checking the same frame), never inside the candidate's call. A flagged frame gets a record of the server's
 * verdict in the chain (agrees or not, what it saw); a sampled frame with a problem gets the risk record the
 * browser did not raise.
 */
export class FaceVerificationService {
  private readonly repo: FaceCheckRepository;
  private readonly draw: (n: number) => number;

  constructor(
    db: Db,
    private readonly attempts: AttemptService,
    private readonly faceCheck: FaceCheckService,
    private readonly risk: RiskService,
    private readonly store: ObjectStore,
    private readonly opts: FaceVerificationOptions,
  ) {
    this.repo = new FaceCheckRepository(db);
    this.draw = opts.draw ?? ((n) => randomInt(n));
  }

  /**
   * A risk record the browser just made: queued for the server's check when it is a face finding (camera abnormal
   * or phone use with a face detail) naming its picture. Answers whether it was queued.
   */
  async flagged(record: {
    attemptId: number;
    recordId: number;
    risk: number;
    detail: string;
    imageKey: string | null;
  }): Promise<boolean> {
    if (!FACE_RISKS.includes(record.risk) || !record.imageKey) return false;
    const kind = describeDetail(record.detail)?.key;
    if (kind === undefined || !FINDING_KINDS.includes(kind)) return false;
    return this.repo.queue({
      attempt_id: record.attemptId,
      source: 'flagged',
      record_id: record.recordId,
      image_key: record.imageKey,
      browser_finding: kind,
      created_at: this.opts.clock(),
    });
  }

  /** A camera frame just recorded: about one in `sampleEvery` is queued for the server's check. */
  async frameRecorded(frame: { attemptId: number; recordId: number; key: string }): Promise<boolean> {
    const n = this.opts.sampleEvery;
    if (n <= 0 || this.draw(n) !== 0) return false;
    return this.repo.queue({
      attempt_id: frame.attemptId,
      source: 'sampled',
      record_id: frame.recordId,
      image_key: frame.key,
      browser_finding: null,
      created_at: this.opts.clock(),
    });
  }

  /**
   * Does the checks that are due, the browsers' flags first, batch after batch while some wait and the sweep's
   * budget lasts, after skipping the stale samples; answers how many were finished.
   */
  async sweep(): Promise<number> {
    const started = this.opts.clock();
    const skipped = await this.repo.skipStaleSamples(started - FACE_SAMPLE_STALE_MS, started);
    if (skipped > 0) this.opts.log.warn({ skipped }, 'sampled exam frames skipped: the face checks fell behind');
    let finished = 0;
    for (;;) {
      const now = this.opts.clock();
      const rows = await this.repo.claim(now, FACE_CHECK_BATCH, now + FACE_CHECK_LEASE_MS);
      const done = await Promise.all(rows.map((row) => this.check(row)));
      finished += done.filter(Boolean).length;
      // A short batch means the queue is empty (or the rest is held); a batch whose every check failed to finish
      // (pictures not stored yet, the engine busy) waits for the next run rather than spinning.
      if (rows.length < FACE_CHECK_BATCH || !done.some(Boolean)) return finished;
      if (this.opts.clock() - started >= FACE_SWEEP_BUDGET_MS) return finished;
    }
  }

  /** An attempt's checks, oldest first (tests, the benchmark). */
  ofAttempt(attemptId: number): Promise<FaceCheckRow[]> {
    return this.repo.ofAttempt(attemptId);
  }

  /** One check: the picture through the server's engine, then its verdict recorded. Answers whether it finished. */
  private async check(row: FaceCheckRow): Promise<boolean> {
    // A sampled frame the browser flagged as well is the flag's to check: one check, one verdict.
    if (row.source === 'sampled' && (await this.repo.flagged(row.attempt_id, row.image_key))) {
      await this.repo.finish(row.id, { status: 'done', checked_at: this.opts.clock() });
      return true;
    }
    const attempt = await this.attempts.byId(row.attempt_id);
    const bytes = attempt ? await this.store.get(row.image_key) : null;
    if (!attempt || !bytes) {
      // The frame may still be on its way (a record made before its upload ends); after a few tries, given up.
      if (attempt && row.tries < FACE_CHECK_MAX_TRIES) await this.repo.release(row.id);
      else await this.repo.finish(row.id, { status: 'failed', checked_at: this.opts.clock() });
      return false;
    }
    let a: FaceAssessment;
    try {
      a = await this.faceCheck.assess(attempt, bytes);
    } catch (err) {
      if (err instanceof AppError && err.code === 'rate_limited') {
        await this.repo.release(row.id);
        return false;
      }
      const unreadable = err instanceof AppError;
      this.opts.log.warn({ err, check: row.id }, 'face check of an exam frame failed');
      if (unreadable || row.tries >= FACE_CHECK_MAX_TRIES)
        await this.repo.finish(row.id, { status: 'failed', checked_at: this.opts.clock() });
      else await this.repo.release(row.id);
      return false;
    }
    const found: { kind: FaceFindingKind; risk: RiskEventId; detail: string }[] = [];
    if (a.cameraKind !== null && a.cameraFinding !== null)
      found.push({ kind: a.cameraKind, risk: RISK_EVENTS.firstCameraAbnormal.id, detail: a.cameraFinding });
    if (a.phoneDetected)
      found.push({ kind: 'phoneSeen', risk: RISK_EVENTS.phoneUse.id, detail: detail.phoneSeen(a.seen.phoneScore) });
    const now = this.opts.clock();
    const faces = a.seen.faces.length;

    let agrees: number | null = null;
    let resultRecord: number | null = null;
    if (row.source === 'flagged') {
      const same = found.find((f) => f.kind === row.browser_finding);
      agrees = same ? 1 : 0;
      const saw = same?.kind ?? found[0]?.kind ?? null;
      // The verdict joins the chain beside the flag, with the picture it read (by its digest).
      const saved = await this.risk.append(attempt.id, `face-check:${row.record_id}`, {
        attempt_id: attempt.id,
        kind: 'face',
        risk: 0,
        category: 0,
        trigger_time: now,
        detail: detail.faceVerified(row.record_id, same !== undefined, faces, a.seen.phoneScore, saw),
        image_key: row.image_key,
        sha256: createHash('sha256').update(bytes).digest('hex'),
        size: bytes.length,
      });
      resultRecord = saved.id;
    } else {
      // A problem the browser did not raise (its monitor missing, off, or of another mind): raised here.
      for (const f of found) {
        const saved = await this.risk.append(attempt.id, `face-sample:${row.record_id}:${f.kind}`, {
          attempt_id: attempt.id,
          risk: f.risk,
          category: riskCategoryOf(f.risk),
          trigger_time: now,
          detail: f.detail,
          image_key: row.image_key,
        });
        resultRecord ??= saved.id;
      }
    }
    await this.repo.finish(row.id, {
      status: 'done',
      faces,
      phone_score: Math.round(a.seen.phoneScore * 100) / 100,
      server_finding:
        (row.source === 'flagged' ? found.find((f) => f.kind === row.browser_finding) : undefined)?.kind ??
        found[0]?.kind ??
        null,
      agrees,
      result_record_id: resultRecord,
      checked_at: now,
    });
    return true;
  }
}
