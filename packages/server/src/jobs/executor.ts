import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Db } from '../db/database.js';
import { AppError } from '../errors.js';
import { runWithRequestId } from '../ops/context.js';
import { NO_INSTRUMENTS, secondsSince, type Instruments } from '../ops/metrics.js';
import { JobRepository, type JobRow } from '../repositories/jobs.js';
import type { ServiceLog } from '../log.js';
import { jobFromRow } from './row.js';
import {
  JobLeaseLost,
  type Job,
  type Json,
  type JobContext,
  type JobError,
  type JobHandler,
  type JobHandlers,
  type JobProgress,
  type NewJob,
} from './types.js';

/** How a runner holds jobs. */
export interface ExecutorOptions {
  /** How long a claim lasts without renewal: a dead runner's job waits this long before another takes it. */
  leaseMs?: number;
  /** This runner's name in `locked_by` (default: host, process and a random part). */
  runnerId?: string;
  clock?: () => number;
  log?: ServiceLog;
  /** Where job durations are reported. */
  metrics?: Instruments;
}

/** Progress is written at most this often (ms); the final value of a phase always lands. */
const PROGRESS_EVERY_MS = 250;

/** Why a running handler's signal aborted. */
const CANCELLED = 'cancelled';
const LOST = 'lease lost';
const SHUTDOWN = 'shutdown';

/** What happened to a job `run` was asked to run. */
export type RunOutcome =
  /** It ran to an end (done, failed or cancelled). */
  | 'finished'
  /** Another runner holds it and its lease has not run out. */
  | 'held'
  /** It is finished, cancelled or unknown: nothing to do. */
  | 'gone'
  /** This runner lost it while running (another took it over) or gave it back on shutdown. */
  | 'released';

/** A stable error for a job that threw. */
function jobError(err: unknown): JobError {
  if (err instanceof AppError) return { code: err.code, message: err.message };
  return { code: 'internal_error', message: err instanceof Error ? err.message : String(err) };
}

/** Parses a stored JSON column. */
function parse(text: string | null): Json | null {
  return text === null ? null : (JSON.parse(text) as Json);
}

/**
 * Claims a job in the table, runs its handler with a lease kept alive, and records how it ended. Both queue
 * implementations run jobs through it: the table is the record, whichever carried the wakeup.
 */
export class JobExecutor<K extends string> {
  readonly runnerId: string;
  readonly leaseMs: number;
  private readonly clock: () => number;
  private readonly repo: JobRepository;
  private readonly running = new Map<number, { controller: AbortController; done: Promise<RunOutcome> }>();

  constructor(
    private readonly db: Db,
    private readonly handlers: JobHandlers<K>,
    private readonly options: ExecutorOptions = {},
  ) {
    this.runnerId = options.runnerId ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    this.leaseMs = options.leaseMs ?? 15_000;
    this.clock = options.clock ?? Date.now;
    this.repo = new JobRepository(db);
  }

  /** How many jobs this runner is running now. */
  get busy(): number {
    return this.running.size;
  }

  /** Claims job `id` and runs it to an end (or until this runner loses it). */
  run(id: number): Promise<RunOutcome> {
    const already = this.running.get(id);
    if (already) return Promise.resolve('held');
    const controller = new AbortController();
    const done = this.claimAndRun(id, controller).finally(() => this.running.delete(id));
    this.running.set(id, { controller, done });
    return done;
  }

  /** Writes a new job to the table, queued; answers its id (the queue carries its wakeup). */
  insert(job: NewJob<K>): Promise<number> {
    return this.repo.insert({
      kind: job.kind,
      payload: JSON.stringify(job.payload),
      owner_staff_id: job.owner.staffId,
      team_id: job.owner.teamId,
      exam_id: job.examId ?? null,
      created_at: this.clock(),
      request_id: job.requestId ?? null,
    });
  }

  /** Asks job `id` to stop, and stops it at once when this runner runs it; answers the job as it is then. */
  async cancel(id: number): Promise<Job<K> | undefined> {
    await this.repo.requestCancel(id, this.clock());
    this.cancelHere(id);
    const row = await this.repo.byId(id);
    return row ? jobFromRow<K>(row) : undefined;
  }

  /** Cancels job `id` at once when this runner is running it (others see the request at their next renewal). */
  cancelHere(id: number): void {
    this.running.get(id)?.controller.abort(CANCELLED);
  }

  /** Aborts every running handler and gives their jobs back to the queue; resolves once they stopped (or after `graceMs`). */
  async stop(graceMs = 5_000): Promise<void> {
    const all = [...this.running.entries()];
    for (const [, r] of all) r.controller.abort(SHUTDOWN);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), graceMs)));
    const stopped = await Promise.race([Promise.all(all.map(([, r]) => r.done.catch(() => undefined))), late]);
    clearTimeout(timer);
    // A handler that ignores its signal is left behind: its job goes back to the queue, and its next checkpoint
    // fails (the lease is no longer this runner's).
    if (stopped === 'late') {
      for (const [id] of all)
        if (this.running.has(id)) await this.repo.release(id, this.runnerId).catch(() => undefined);
    }
  }

  private async claimAndRun(id: number, controller: AbortController): Promise<RunOutcome> {
    const now = this.clock();
    const row = await this.repo.claim(id, this.runnerId, now, now + this.leaseMs);
    if (!row) {
      const current = await this.repo.byId(id);
      return current && (current.state === 'queued' || current.state === 'running') ? 'held' : 'gone';
    }
    const handler = (this.handlers as Record<string, JobHandler<never> | undefined>)[row.kind];
    if (!handler) {
      await this.repo.finish(
        id,
        this.runnerId,
        { state: 'failed', error: { code: 'internal_error', message: `no handler for jobs of kind ${row.kind}` } },
        this.clock(),
      );
      return 'finished';
    }
    // The job runs under the id of the request that created it: its log lines carry that id.
    return runWithRequestId(row.request_id, () => this.runClaimed(row, handler as JobHandler, controller));
  }

  /** Runs a claimed job's handler with its lease kept alive, and records how it ended. */
  private async runClaimed(row: JobRow, handler: JobHandler, controller: AbortController): Promise<RunOutcome> {
    const { id } = row;
    const started = performance.now();
    this.options.log?.info({ job: id, kind: row.kind, attempt: row.attempts }, 'job started');
    const [outcome, ended] = await this.supervise(row, handler, controller);
    const seconds = secondsSince(started);
    (this.options.metrics ?? NO_INSTRUMENTS).jobFinished(row.kind, ended, seconds);
    this.options.log?.info({ job: id, kind: row.kind, outcome: ended, ms: Math.round(seconds * 1000) }, 'job ended');
    return outcome;
  }

  /** Runs the handler; answers the outcome and how the run ended (the job's final state, or `released`). */
  private async supervise(
    row: JobRow,
    handler: JobHandler,
    controller: AbortController,
  ): Promise<[RunOutcome, 'done' | 'failed' | 'cancelled' | 'released']> {
    const { id } = row;
    const heartbeat = setInterval(
      () => {
        this.repo
          .renew(id, this.runnerId, this.clock() + this.leaseMs)
          .then((held) => {
            if (!held) controller.abort(LOST);
            else if (held.cancel) controller.abort(CANCELLED);
          })
          .catch((err: unknown) => this.options.log?.error({ err, job: id }, 'job lease renewal failed'));
      },
      Math.max(50, Math.floor(this.leaseMs / 3)),
    );
    heartbeat.unref();
    try {
      if (row.cancel_requested === 1) controller.abort(CANCELLED);
      const result = await handler(this.context(row, controller.signal));
      if (controller.signal.aborted) throw controller.signal.reason;
      const ok = await this.repo.finish(
        id,
        this.runnerId,
        { state: 'done', result: JSON.stringify(result) },
        this.clock(),
      );
      return ok ? ['finished', 'done'] : ['released', 'released'];
    } catch (err) {
      const reason: unknown = controller.signal.aborted ? controller.signal.reason : undefined;
      if (reason === LOST || err instanceof JobLeaseLost) return ['released', 'released'];
      if (reason === SHUTDOWN) {
        await this.repo.release(id, this.runnerId);
        return ['released', 'released'];
      }
      if (reason === CANCELLED) {
        await this.repo.finish(id, this.runnerId, { state: 'cancelled' }, this.clock());
        return ['finished', 'cancelled'];
      }
      const error = jobError(err);
      if (error.code === 'internal_error') this.options.log?.error({ err, job: id, kind: row.kind }, 'job failed');
      await this.repo.finish(id, this.runnerId, { state: 'failed', error }, this.clock());
      return ['finished', 'failed'];
    } finally {
      clearInterval(heartbeat);
    }
  }

  /** The handler's view of its job. */
  private context(row: JobRow, signal: AbortSignal): JobContext<never> {
    const { id } = row;
    const runner = this.runnerId;
    let cursor = parse(row.cursor);
    let phase: string | null = row.progress_phase;
    let lastWrite = 0;
    const throwIfAborted = () => {
      if (signal.aborted) throw signal.reason === LOST ? new JobLeaseLost(id) : (signal.reason as Error);
    };
    const checkpoint = async <T>(
      next: Json | ((out: T) => Json),
      effect: (trx: Db) => Promise<T>,
      progress?: Omit<JobProgress, 'phase'>,
    ): Promise<T> => {
      throwIfAborted();
      let stored: Json = null;
      const out = await this.db.transaction().execute(async (trx) => {
        const repo = new JobRepository(trx);
        // The job's row first: on PostgreSQL this locks it, so a runner taking over waits for this commit.
        stored = typeof next === 'function' ? null : next;
        if (!(await repo.checkpoint(id, runner, JSON.stringify(stored), progress))) throw new JobLeaseLost(id);
        const value = await effect(trx);
        if (typeof next === 'function') {
          stored = next(value);
          await repo.checkpoint(id, runner, JSON.stringify(stored), progress);
        }
        return value;
      });
      cursor = stored;
      return out;
    };
    const ctx: JobContext<Json> = {
      jobId: id,
      payload: parse(row.payload),
      owner: { staffId: row.owner_staff_id, teamId: row.team_id },
      attempt: row.attempts,
      signal,
      get cursor() {
        return cursor;
      },
      progress: async (done, total, nextPhase) => {
        throwIfAborted();
        const phaseChanged = nextPhase !== undefined && nextPhase !== phase;
        if (nextPhase !== undefined) phase = nextPhase;
        const now = this.clock();
        if (!phaseChanged && done < total && now - lastWrite < PROGRESS_EVERY_MS) return;
        lastWrite = now;
        if (!(await this.repo.progress(id, runner, done, total, phase))) throw new JobLeaseLost(id);
      },
      checkpoint,
      eachItem: async (items, effect, itemPhase) => {
        const start = typeof cursor === 'number' ? cursor : 0;
        if (itemPhase !== undefined) await ctx.progress(start, items.length, itemPhase);
        for (let i = start; i < items.length; i++) {
          await checkpoint(i + 1, (trx) => effect(items[i]!, i, trx), { done: i + 1, total: items.length });
        }
      },
    };
    return ctx as unknown as JobContext<never>;
  }
}
