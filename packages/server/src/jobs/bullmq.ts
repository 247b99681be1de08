import { Queue, Worker, type Job as BullJob } from 'bullmq';
import type { Db } from '../db/database.js';
import { JobRepository } from '../repositories/jobs.js';
import { JobExecutor, type ExecutorOptions } from './executor.js';
import type { Job, JobHandlers, JobQueue, NewJob } from './types.js';

/** The BullMQ queue name API processes and job workers share. */
export const JOBS_QUEUE = 'examhall-jobs';

/** How the BullMQ implementation works. */
export interface BullQueueOptions extends ExecutorOptions {
  /** Jobs run at once by this process's worker. */
  concurrency?: number;
  /** Redis key prefix (tests give each run its own). */
  prefix?: string;
  /** Whether this process runs jobs (false: it only enqueues and cancels). */
  work?: boolean;
}

function connection(redisUrl: string): { url: string; maxRetriesPerRequest: null } {
  // Workers block on Redis; BullMQ requires maxRetriesPerRequest null for that.
  return { url: redisUrl, maxRetriesPerRequest: null };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A claimable job is delivered again when BullMQ has not held it for this long (see redeliverLost). */
export const REDELIVER_AFTER_MS = 60_000;
/** Claimable jobs looked at per sweep. */
const REDELIVER_BATCH = 500;

/**
 * Jobs carried by BullMQ on Redis: BullMQ delivers the wakeups to any worker process and notices a worker
 * that died (its lock is not renewed: the job is "stalled" and handed out again); the `job` table still holds
 * state, progress and the cursor, so the next worker resumes where the dead one's last checkpoint left off.
 */
export class BullJobQueue<K extends string> implements JobQueue<K> {
  readonly executor: JobExecutor<K>;
  private readonly queue: Queue<{ id: number }>;
  private worker: Worker<{ id: number }> | undefined;
  private readonly repo: JobRepository;
  private readonly clock: () => number;
  private closing = false;

  constructor(
    db: Db,
    handlers: JobHandlers<K>,
    private readonly redisUrl: string,
    private readonly options: BullQueueOptions = {},
  ) {
    this.executor = new JobExecutor(db, handlers, options);
    this.repo = new JobRepository(db);
    this.clock = options.clock ?? Date.now;
    this.queue = new Queue<{ id: number }>(JOBS_QUEUE, {
      connection: connection(redisUrl),
      ...(options.prefix ? { prefix: options.prefix } : {}),
      defaultJobOptions: {
        removeOnComplete: { age: 3600, count: 10_000 },
        removeOnFail: { age: 24 * 3600 },
        // The table says how a job ended; BullMQ only retries after a crash (stall).
        attempts: 1,
      },
    });
    this.queue.on('error', () => undefined);
  }

  async enqueue(job: NewJob<K>): Promise<number> {
    const id = await this.executor.insert(job);
    await this.queue.add('job', { id }, { jobId: `job-${id}` });
    return id;
  }

  cancel(jobId: number): Promise<Job<K> | undefined> {
    return this.executor.cancel(jobId);
  }

  /**
   * Jobs the table says a runner may take (queued, or running with a lease that ran out) for more than
   * REDELIVER_AFTER_MS, while BullMQ holds no delivery of them waiting or running: Redis lost them (restarted without
   * its data). Each gets a new delivery; the table's claim keeps a job from running twice however it is delivered.
   */
  async redeliverLost(): Promise<number> {
    const now = this.clock();
    const due = await this.repo.claimable(now, REDELIVER_BATCH, now - REDELIVER_AFTER_MS);
    if (due.length === 0) return 0;
    const held = new Set(
      (await this.queue.getJobs(['waiting', 'active', 'delayed', 'prioritized', 'paused'])).map((j) => j?.data.id),
    );
    const lost = due.filter((id) => !held.has(id));
    for (const id of lost) await this.queue.add('job', { id }, { jobId: `job-${id}-${now}` });
    return lost.length;
  }

  async start(): Promise<void> {
    if (this.worker || this.options.work === false) return;
    const leaseMs = this.executor.leaseMs;
    this.worker = new Worker<{ id: number }>(JOBS_QUEUE, (job) => this.process(job), {
      connection: connection(this.redisUrl),
      ...(this.options.prefix ? { prefix: this.options.prefix } : {}),
      concurrency: this.options.concurrency ?? 2,
      // BullMQ's lock and the table's lease last as long, so a stalled job finds the table's lease run out too.
      lockDuration: leaseMs,
      stalledInterval: Math.max(100, Math.floor(leaseMs / 2)),
      maxStalledCount: 3,
    });
    this.worker.on('error', () => undefined);
    // BullMQ gave up (the job stalled too often): the table says so instead of "running" forever.
    this.worker.on('failed', (job, err) => {
      if (!job) return;
      this.repo
        .abandon(job.data.id, { code: 'internal_error', message: err.message }, this.clock())
        .catch(() => undefined);
    });
    await this.worker.waitUntilReady();
  }

  async close(): Promise<void> {
    this.closing = true;
    await this.executor.stop();
    await this.worker?.close();
    await this.queue.close();
  }

  /** Runs one delivery: claims the job in the table, waiting out a dead worker's lease when BullMQ found it stalled. */
  private async process(job: BullJob<{ id: number }>): Promise<void> {
    const id = job.data.id;
    let lastHolder: string | null = null;
    for (;;) {
      const outcome = await this.executor.run(id);
      if (outcome === 'finished' || outcome === 'gone') return;
      if (outcome === 'released') {
        // Given back on shutdown: deliver it again for another worker (a takeover needs nothing: it runs there).
        if (this.closing) await this.queue.add('job', { id }, { jobId: `job-${id}-${this.clock()}` });
        return;
      }
      const row = await this.repo.byId(id);
      if (!row || row.state !== 'running' || row.lease_until === null) continue;
      // The holder renewed since the last look: it is alive, and this delivery is not needed.
      if (lastHolder !== null && row.locked_by === lastHolder) return;
      lastHolder = row.locked_by;
      await sleep(Math.max(0, row.lease_until - this.clock()) + 50);
    }
  }
}
