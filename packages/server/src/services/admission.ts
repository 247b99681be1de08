import { fail } from '../errors.js';
import type { RateLimiter } from '../ratelimit/limiter.js';

/** How long a candidate's turn is kept while they wait (they ask again every few seconds). */
const TURN_KEPT_MS = 15 * 60_000;

/** The queue every entering candidate of every exam joins: the server's capacity is one, whatever the exam. */
const QUEUE = 'admission:enter';

/**
 * Admission into the exam when everyone presses start in the same minute: entries are paced to `rate` a second
 * across every process (the shared limiter's queue), so that latency stays bounded instead of every request
 * waiting behind all the others. A candidate whose turn has not come is told their place and when to ask again
 * (`admission_queue`, 429); asking again keeps their place. A burst of `burstMs` worth of entries goes at once.
 */
export class AdmissionService {
  /** The latest turn the shared queue gave an entry of this process (epoch ms): the queue's end as last seen here. */
  private lastTurn = 0;

  constructor(
    private readonly limiter: RateLimiter,
    private readonly opts: {
      /** Entries a second; 0 admits everyone at once. */
      rate: number;
      /** Entries this many milliseconds ahead of their turn go now. */
      burstMs: number;
      clock: () => number;
    },
  ) {}

  /** Resolves when `attemptId` may enter now; otherwise throws admission_queue with its place and wait. */
  async admit(attemptId: number): Promise<void> {
    if (this.opts.rate <= 0) return;
    const interval = 1000 / this.opts.rate;
    const now = this.opts.clock();
    const turn = await this.limiter.turn(QUEUE, String(attemptId), interval, TURN_KEPT_MS, now);
    if (turn > this.lastTurn) this.lastTurn = turn;
    const wait = turn - this.opts.burstMs - now;
    if (wait <= 0) return;
    throw fail('admission_queue', `your turn comes in about ${Math.ceil(wait / 1000)} s`, {
      place: Math.ceil(wait / interval),
      retry_after_ms: Math.ceil(wait),
    });
  }

  /**
   * Entries waiting for their turn, as this process last saw the queue (the metrics' admission queue): the turns
   * between now and the latest one handed out here, less the burst that enters at once. Every process sees the one
   * shared queue; the largest of their figures is the queue's length.
   */
  queued(): number {
    if (this.opts.rate <= 0) return 0;
    const interval = 1000 / this.opts.rate;
    return Math.max(0, Math.ceil((this.lastTurn - this.opts.burstMs - this.opts.clock()) / interval));
  }
}
