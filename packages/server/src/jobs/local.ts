import type { Db } from '../db/database.js';
import { JobRepository } from '../repositories/jobs.js';
import { JobExecutor, type ExecutorOptions } from './executor.js';
import type { Job, JobHandlers, JobQueue, NewJob } from './types.js';

/** How the in-process runner works. */
export interface LocalQueueOptions extends ExecutorOptions {
  /** How often the table is looked at for jobs (another process's, or one whose runner died); ms. */
  pollMs?: number;
  /** Jobs run at once in this process. */
  concurrency?: number;
}

/**
 * Jobs run in this process (the embedded default): the runner claims queued jobs from the table with a lease;
 * a job whose lease ran out (its process died) is claimed again and resumes from its cursor. A job enqueued
 * here starts at once; others are found by polling.
 */
export class LocalJobQueue<K extends string> implements JobQueue<K> {
  readonly executor: JobExecutor<K>;
  private readonly repo: JobRepository;
  private readonly pollMs: number;
  private readonly concurrency: number;
  private readonly clock: () => number;
  private timer: NodeJS.Timeout | undefined;
  private started = false;
  private ticking: Promise<void> | undefined;
  private again = false;

  constructor(db: Db, handlers: JobHandlers<K>, options: LocalQueueOptions = {}) {
    this.executor = new JobExecutor(db, handlers, options);
    this.repo = new JobRepository(db);
    this.pollMs = options.pollMs ?? 1_000;
    this.concurrency = options.concurrency ?? 2;
    this.clock = options.clock ?? Date.now;
  }

  async enqueue(job: NewJob<K>): Promise<number> {
    const id = await this.executor.insert(job);
    this.wake();
    return id;
  }

  cancel(jobId: number): Promise<Job<K> | undefined> {
    return this.executor.cancel(jobId);
  }

  /** The runner polls the table: nothing to deliver again. */
  redeliverLost(): Promise<number> {
    return Promise.resolve(0);
  }

  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    this.timer = setInterval(() => this.wake(), this.pollMs);
    this.timer.unref();
    this.wake();
  }

  async close(): Promise<void> {
    this.started = false;
    clearInterval(this.timer);
    await this.ticking;
    await this.executor.stop();
  }

  /** Looks for work now (coalesced: one look at a time, and one more if woken meanwhile). */
  private wake(): void {
    if (!this.started) return;
    if (this.ticking) {
      this.again = true;
      return;
    }
    this.ticking = this.fill()
      .catch(() => undefined)
      .finally(() => {
        this.ticking = undefined;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  /** Starts claimable jobs up to the concurrency; each finished job looks for the next. */
  private async fill(): Promise<void> {
    const free = this.concurrency - this.executor.busy;
    if (free <= 0) return;
    const ids = await this.repo.claimable(this.clock(), free + this.executor.busy);
    for (const id of ids) {
      if (!this.started || this.executor.busy >= this.concurrency) break;
      void this.executor.run(id).then(
        () => this.wake(),
        () => this.wake(),
      );
    }
  }
}
