import type { Db } from '../db/database.js';

/** A JSON value as payloads, cursors and results carry it. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Where a job is. `done`, `failed` and `cancelled` are final. */
export type JobState = 'queued' | 'running' | 'done' | 'failed' | 'cancelled';

/** The states a job never leaves. */
export const FINAL_STATES: readonly JobState[] = ['done', 'failed', 'cancelled'];

/** How far a job got: items done of total in the current phase (a handler's own word, e.g. 'pictures'). */
export interface JobProgress {
  done: number;
  total: number;
  phase: string | null;
}

/** Why a job failed: a stable code (the error catalogue's when the handler threw `fail(...)`) and a message. */
export interface JobError {
  code: string;
  message: string;
}

/** Whom a job belongs to: the staff member who started it and their team (null for the system's own). */
export interface JobOwner {
  staffId: number | null;
  teamId: number | null;
}

/** A job as the table holds it. */
export interface Job<K extends string = string> {
  id: number;
  kind: K;
  payload: Json;
  owner: JobOwner;
  state: JobState;
  progress: JobProgress;
  /** The handler's result once done. */
  result: Json | null;
  error: JobError | null;
  /** Set when someone asked to cancel a running job; the handler's signal aborts. */
  cancelRequested: boolean;
  /** How many times a runner started it (more than one after a runner died or lost its lease). */
  attempts: number;
  createdAt: number;
  startedAt: number | null;
  finishedAt: number | null;
}

/** What a handler gets: its payload, a way to report progress, checkpoints, and a signal for cancel. */
export interface JobContext<P extends Json = Json> {
  jobId: number;
  payload: P;
  owner: JobOwner;
  /** Which run this is (1 on the first). */
  attempt: number;
  /** Aborts when the job is cancelled, or when this runner lost the job (its lease went to another runner). */
  signal: AbortSignal;
  /**
   * The cursor the last checkpoint stored, or null on a fresh start. A resumed job (its runner died) starts
   * here, so items whose effect was committed are not done again.
   */
  cursor: Json | null;
  /** Reports progress (throttled; the final value always lands). */
  progress(done: number, total: number, phase?: string): Promise<void>;
  /**
   * Runs `effect` in one database transaction together with storing `cursor` (and the progress, when given):
   * both commit or neither does. `cursor` may be made from the effect's outcome (e.g. ids it created, for a
   * resumed run to answer with). Throws `JobLeaseLost` (the effect rolled back) when this runner no longer
   * holds the job, so a runner presumed dead never commits twice what its successor does.
   */
  checkpoint<T>(
    cursor: Json | ((out: T) => Json),
    effect: (trx: Db) => Promise<T>,
    progress?: Omit<JobProgress, 'phase'>,
  ): Promise<T>;
  /**
   * Items in order, one checkpoint each (the cursor is the count done): a resumed job skips the items already
   * committed, so every item's effect happens exactly once however often the job is restarted.
   */
  eachItem<T>(
    items: readonly T[],
    effect: (item: T, index: number, trx: Db) => Promise<void>,
    phase?: string,
  ): Promise<void>;
}

/** Does one kind of job; its result is stored as the job's result. Throwing `fail(code)` fails it with that code. */
export type JobHandler<P extends Json = Json> = (ctx: JobContext<P>) => Promise<Json>;

/** The handlers by kind; a later kind (bulk invitations, SMS, exports) plugs in by adding one. */
export type JobHandlers<K extends string> = { [kind in K]: JobHandler<never> };

/** A new job. */
export interface NewJob<K extends string> {
  kind: K;
  payload: Json;
  owner: JobOwner;
  /** The exam it works on, if any (its assigned proctors and graders follow it). */
  examId?: number | null | undefined;
  /** The request that created it (its log lines carry the id). */
  requestId?: string | undefined;
}

/**
 * Where jobs run: in this process (polling the table), or on BullMQ workers through Redis. Either way the
 * `job` table is the record the console reads.
 */
export interface JobQueue<K extends string = string> {
  /** Stores a job and wakes a runner; answers its id at once. */
  enqueue(job: NewJob<K>): Promise<number>;
  /** Asks a job to stop: a queued job is cancelled at once, a running one when its handler sees the signal. */
  cancel(jobId: number): Promise<Job<K> | undefined>;
  /** Starts running jobs in this process (the API process embedded, a worker on Redis). */
  start(): Promise<void>;
  /**
   * Delivers again the jobs waiting in the table that the carrier no longer holds (a Redis that lost its data);
   * answers how many. Once per period across the cluster. The in-process runner reads the table and loses none.
   */
  redeliverLost(): Promise<number>;
  /** Stops taking jobs; running handlers are aborted and left for another runner to resume. */
  close(): Promise<void>;
}

/** A task run every `periodMs`, once per period across the cluster. */
export interface PeriodicTask {
  name: string;
  periodMs: number;
  run(): Promise<unknown>;
}

/** Runs periodic tasks: with one process (embedded) a timer, on Redis a lock per period so one process runs each. */
export interface PeriodicScheduler {
  /** Starts every task's timer. */
  start(tasks: readonly PeriodicTask[]): void;
  /** Stops the timers and waits for runs in progress. */
  close(): Promise<void>;
}

/** Thrown inside a handler when its runner no longer holds the job (another runner took it over). */
export class JobLeaseLost extends Error {
  constructor(jobId: number) {
    super(`job ${jobId}: this runner no longer holds it`);
    this.name = 'JobLeaseLost';
  }
}
