import type { JudgeCaseResult, JudgeProgress, JudgeResult, JudgeTask } from '../types.js';

/** Where a job is; `done` includes CE and SE results, `failed` only a job the queue gave up on. */
export type JobState = 'queued' | 'running' | 'done' | 'failed';

/** A job as the submitter sees it (maps onto the contract's JudgeData). */
export interface JobStatus {
  id: string;
  state: JobState;
  /** Cases finished so far, in case order. */
  cases: JudgeCaseResult[];
  total: number;
  /** The whole result once done. */
  result?: JudgeResult;
  /** Why the queue gave up (state failed). */
  error?: string;
}

/** The progress a job reports while it runs (BullMQ job progress carries exactly this). */
export interface JobProgress {
  last: JudgeProgress;
  cases: JudgeCaseResult[];
  total: number;
}

/** Receives each job's progress events as they happen. */
export type JobListener = (jobId: string, event: JudgeProgress) => void;

/** What the server uses, whichever queue runs behind it. */
export interface JudgeQueue {
  /**
   * Queues a task and returns its job id at once. Given `jobId` (a job the queue lost, queued again under the id its
   * caller knows), the task is queued under that id, and queuing an id the queue still knows changes nothing.
   */
  submit(task: JudgeTask, jobId?: string): Promise<string>;
  /** Where a job is, with the cases judged so far; undefined for an unknown or expired id. */
  status(jobId: string): Promise<JobStatus | undefined>;
  /** Subscribes to progress of every job; returns the unsubscribe function. */
  onProgress(listener: JobListener): () => void;
  /** Resolves with the job's result once it is done (rejects if the queue gives up or on timeout). */
  wait(jobId: string, timeoutMs?: number): Promise<JudgeResult>;
  /** Stops taking jobs and releases connections. */
  close(): Promise<void>;
}

/** Folds a progress event into the cases seen so far. */
export function foldProgress(cases: JudgeCaseResult[], event: JudgeProgress): JudgeCaseResult[] {
  return event.type === 'case' ? [...cases, event.result] : cases;
}

/** Task size limits enforced at submit, so a queue never carries an unbounded task. */
export const TASK_LIMITS = {
  cases: 500,
  sourceBytes: 256 * 1024,
  caseBytes: 64 * 1024 * 1024,
  timeLimitMs: 30_000,
  memoryLimitMb: 2048,
};

/** Rejects a task outside the judge's limits (the server validates first; this is the judge's own guard). */
export function assertTask(task: JudgeTask): void {
  const problems: string[] = [];
  if (!Array.isArray(task.cases) || task.cases.length > TASK_LIMITS.cases)
    problems.push(`cases: at most ${TASK_LIMITS.cases}`);
  if (typeof task.source !== 'string' || Buffer.byteLength(task.source) > TASK_LIMITS.sourceBytes)
    problems.push('source: too large');
  if (!(task.timeLimitMs > 0 && task.timeLimitMs <= TASK_LIMITS.timeLimitMs))
    problems.push('timeLimitMs: out of range');
  if (!(task.memoryLimitMb >= 16 && task.memoryLimitMb <= TASK_LIMITS.memoryLimitMb))
    problems.push('memoryLimitMb: out of range');
  const bytes = (task.cases ?? []).reduce(
    (n, c) => n + Buffer.byteLength(c.input) + Buffer.byteLength(c.expected ?? ''),
    0,
  );
  if (bytes > TASK_LIMITS.caseBytes) problems.push('cases: too much data');
  if (problems.length) throw new Error(`invalid judge task: ${problems.join('; ')}`);
}
