import { randomUUID } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { Job, Queue, QueueEvents, Worker } from 'bullmq';
import { judge } from '../judge.js';
import type { JudgeProgress, JudgeResult, JudgeTask } from '../types.js';
import { assertTask, foldProgress } from './types.js';
import type { JobListener, JobProgress, JobStatus, JudgeQueue } from './types.js';

/** The BullMQ queue name every submitter and worker shares. */
export const QUEUE_NAME = 'examhall-judge';

/** Recovery settings: a worker that stops renewing its lock loses the job to another worker. */
export interface RecoveryOptions {
  /** How long a job's lock lasts without renewal (a dead worker's job waits this long). */
  lockDuration?: number;
  /** How often workers look for jobs whose lock expired. */
  stalledInterval?: number;
}

const DEFAULT_RECOVERY = { lockDuration: 30_000, stalledInterval: 15_000 };

function connection(redisUrl: string): { url: string; maxRetriesPerRequest: null } {
  // Workers block on Redis; BullMQ requires maxRetriesPerRequest null for that.
  return { url: redisUrl, maxRetriesPerRequest: null };
}

/** The submitting side on Redis: any number of API processes share it. */
export class BullJudgeQueue implements JudgeQueue {
  private readonly queue: Queue<JudgeTask, JudgeResult>;
  private readonly events: QueueEvents;
  private readonly listeners = new Set<JobListener>();

  constructor(redisUrl: string, name = QUEUE_NAME) {
    this.queue = new Queue<JudgeTask, JudgeResult>(name, {
      connection: connection(redisUrl),
      defaultJobOptions: {
        removeOnComplete: { age: 3600, count: 10_000 },
        removeOnFail: { age: 24 * 3600 },
        // A job is judged again only after a crash (stall), never after a verdict: judge() does not throw.
        attempts: 1,
      },
    });
    this.events = new QueueEvents(name, { connection: connection(redisUrl) });
    this.events.on('progress', ({ jobId, data }) => {
      const p = data as unknown as JobProgress;
      if (!p || typeof p !== 'object' || !('last' in p)) return;
      for (const l of this.listeners) {
        try {
          l(jobId, p.last);
        } catch {
          // a listener's fault stays its own
        }
      }
    });
  }

  /** Resolves once both connections are up (useful before the first submit in tests). */
  async ready(): Promise<void> {
    await Promise.all([this.queue.waitUntilReady(), this.events.waitUntilReady()]);
  }

  /** Queues a task and returns its job id at once. */
  async submit(task: JudgeTask, jobId?: string): Promise<string> {
    assertTask(task);
    // BullMQ adds nothing under an id it still holds.
    const id = jobId ?? randomUUID();
    await this.queue.add('judge', task, { jobId: id });
    return id;
  }

  /** Where a job is, with the cases judged so far. */
  async status(jobId: string): Promise<JobStatus | undefined> {
    const job = await Job.fromId<JudgeTask, JudgeResult>(this.queue, jobId);
    if (!job) return undefined;
    const state = await job.getState();
    const progress = job.progress as JobProgress | number;
    const total = job.data.cases.length;
    const cases = typeof progress === 'object' && progress ? progress.cases : [];
    switch (state) {
      case 'completed':
        return { id: jobId, state: 'done', cases: job.returnvalue.cases, total, result: job.returnvalue };
      case 'failed':
        return { id: jobId, state: 'failed', cases, total, error: job.failedReason };
      case 'active':
        return { id: jobId, state: 'running', cases, total };
      case 'waiting':
      case 'waiting-children':
      case 'delayed':
      case 'prioritized':
      case 'unknown':
        return { id: jobId, state: 'queued', cases, total };
    }
  }

  /** Subscribes to progress of every job (through Redis events, from whichever worker runs it). */
  onProgress(listener: JobListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Resolves with the job's result once done. */
  async wait(jobId: string, timeoutMs = 600_000): Promise<JudgeResult> {
    const job = await Job.fromId<JudgeTask, JudgeResult>(this.queue, jobId);
    if (!job) throw new Error(`unknown judge job ${jobId}`);
    return (await job.waitUntilFinished(this.events, timeoutMs)) as JudgeResult;
  }

  /** Closes the Redis connections. */
  async close(): Promise<void> {
    await Promise.all([this.events.close(), this.queue.close()]);
  }
}

/** A running worker; close() lets the current jobs finish. */
export interface WorkerHandle {
  close(): Promise<void>;
  worker: Worker<JudgeTask, JudgeResult>;
}

/** Starts judging jobs from the Redis queue in this process (`examhall-judge worker --redis URL`). */
export async function runWorker(
  redisUrl: string,
  options: RecoveryOptions & { concurrency?: number; queue?: string } = {},
): Promise<WorkerHandle> {
  const worker = new Worker<JudgeTask, JudgeResult>(
    options.queue ?? QUEUE_NAME,
    async (job) => {
      assertTask(job.data);
      let cases: JobProgress['cases'] = [];
      const total = job.data.cases.length;
      let chain = Promise.resolve();
      const result = await judge(job.data, (event: JudgeProgress) => {
        cases = foldProgress(cases, event);
        const progress: JobProgress = { last: event, cases, total };
        // Progress updates are sent in order; a failed update only loses a progress message.
        chain = chain.then(() => job.updateProgress(progress as unknown as object)).catch(() => undefined);
      });
      await chain;
      return result;
    },
    {
      connection: connection(redisUrl),
      concurrency: options.concurrency ?? availableParallelism(),
      lockDuration: options.lockDuration ?? DEFAULT_RECOVERY.lockDuration,
      stalledInterval: options.stalledInterval ?? DEFAULT_RECOVERY.stalledInterval,
      // One crash is forgiven twice over (e.g. a worker host rebooting); a task that kills every worker fails.
      maxStalledCount: 2,
    },
  );
  worker.on('error', () => undefined);
  await worker.waitUntilReady();
  return { worker, close: () => worker.close() };
}
