import { randomUUID } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { judge } from '../judge.js';
import { Semaphore } from '../limit.js';
import type { JudgeResult, JudgeTask } from '../types.js';
import { assertTask, foldProgress } from './types.js';
import type { JobListener, JobStatus, JudgeQueue } from './types.js';

/** How long a finished job's status stays readable. */
const KEEP_MS = 60 * 60 * 1000;

/**
 * The embedded default: jobs run in this process, `concurrency` at a time (cases inside a job share
 * the process-wide box limit). Statuses live in memory, so this queue serves one process only.
 */
export class LocalJudgeQueue implements JudgeQueue {
  private readonly jobs = new Map<string, JobStatus & { finished?: number; promise: Promise<JudgeResult> }>();
  private readonly listeners = new Set<JobListener>();
  private readonly pool: Semaphore;
  private closed = false;

  constructor(concurrency = availableParallelism()) {
    this.pool = new Semaphore(concurrency);
  }

  /** Queues a task and returns its job id at once (see JudgeQueue.submit for `jobId`). */
  async submit(task: JudgeTask, jobId?: string): Promise<string> {
    if (this.closed) throw new Error('the judge queue is closed');
    assertTask(task);
    this.sweep();
    if (jobId !== undefined && this.jobs.has(jobId)) return jobId;
    const id = jobId ?? randomUUID();
    const job = {
      id,
      state: 'queued' as JobStatus['state'],
      cases: [] as JobStatus['cases'],
      total: task.cases.length,
    } as JobStatus & {
      finished?: number;
      promise: Promise<JudgeResult>;
    };
    job.promise = this.pool.use(async () => {
      job.state = 'running';
      const result = await judge(task, (event) => {
        job.cases = foldProgress(job.cases, event);
        for (const l of this.listeners) {
          try {
            l(id, event);
          } catch {
            // a listener's fault stays its own
          }
        }
      });
      Object.assign(job, { state: 'done', result, cases: result.cases, finished: Date.now() });
      return result;
    });
    this.jobs.set(id, job);
    return id;
  }

  /** Where a job is, with the cases judged so far. */
  status(jobId: string): Promise<JobStatus | undefined> {
    const job = this.jobs.get(jobId);
    if (!job) return Promise.resolve(undefined);
    const { id, state, cases, total, result } = job;
    return Promise.resolve({ id, state, cases, total, ...(result ? { result } : {}) });
  }

  /** Subscribes to progress of every job. */
  onProgress(listener: JobListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Resolves with the job's result once done. */
  async wait(jobId: string, timeoutMs = 600_000): Promise<JudgeResult> {
    const job = this.jobs.get(jobId);
    if (!job) throw new Error(`unknown judge job ${jobId}`);
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        job.promise,
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`judge job ${jobId} did not finish in ${timeoutMs} ms`)),
            timeoutMs,
          );
        }),
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Waits for running jobs and refuses new ones. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled([...this.jobs.values()].map((j) => j.promise));
  }

  private sweep(): void {
    const now = Date.now();
    for (const [id, job] of this.jobs) if (job.finished && now - job.finished > KEEP_MS) this.jobs.delete(id);
  }
}
