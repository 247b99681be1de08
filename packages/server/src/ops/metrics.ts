/**
 * Prometheus metrics of one app: the one module that knows prom-client. Code elsewhere reports through the
 * small `Instruments` interface; every app has a registry of its own, so apps built side by side (tests) never
 * share or double-register a metric.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** What instrumented code reports. */
export interface Instruments {
  /** An HTTP request ended: `call` is the route's declared path (never the raw URL). */
  request(call: string, method: string, status: number, seconds: number): void;
  /** An answer save was committed. */
  answerSaved(): void;
  /** A job run ended (`outcome`: done, failed, cancelled, or released to another runner). */
  jobFinished(kind: string, outcome: string, seconds: number): void;
  /** A judge job this process submitted ended, `seconds` after it was submitted. */
  judged(mode: string, verdict: string, seconds: number): void;
  /** A face check ran (`outcome`: ok or error). */
  faceChecked(outcome: 'ok' | 'error', seconds: number): void;
  /** An event stream of `call` opened (+1) or closed (-1). */
  streamOpen(call: string, delta: 1 | -1): void;
  /** A periodic task ran in this process (the one that held its period). */
  periodicRan(task: string, outcome: 'done' | 'failed', seconds: number): void;
  /** A call of the object store failed (the store's own failure, not a refused key or a full reserve). */
  storeFailed(operation: string): void;
  /** A database statement failed: the database did not answer, a constraint refused a row, or anything else. */
  dbFailed(kind: DbErrorKind): void;
}

/** Why a database statement failed, as the metrics count it. */
export type DbErrorKind = 'unavailable' | 'constraint' | 'other';
/** Every kind, so each series exists at 0 from the start (a rate over it is 0, not absent). */
const DB_ERROR_KINDS: readonly DbErrorKind[] = ['unavailable', 'constraint', 'other'];
/** The object store's calls, so each series exists at 0 from the start. */
export const STORE_OPERATIONS = ['put', 'putFile', 'get', 'stream', 'head', 'digest', 'presignGet', 'delete'] as const;

/** Reports nothing: for code built without an app (command line, test workers). */
export const NO_INSTRUMENTS: Instruments = {
  request: () => undefined,
  answerSaved: () => undefined,
  jobFinished: () => undefined,
  judged: () => undefined,
  faceChecked: () => undefined,
  streamOpen: () => undefined,
  periodicRan: () => undefined,
  storeFailed: () => undefined,
  dbFailed: () => undefined,
};

/** Connections of the database pool (SQLite has one connection and no pool: only `total`). */
export interface PoolStats {
  total: number;
  idle?: number;
  waiting?: number;
}

/** What is read at scrape time rather than reported as it happens. */
export interface Gauges {
  /** Jobs queued and running, by kind and state. */
  jobDepths(): Promise<{ kind: string; state: string; count: number }[]>;
  /** Judge jobs this process submitted and is waiting for. */
  judgeWaiting(): number;
  /** The database pool now. */
  pool(): PoolStats;
  /** Attempts in the exam phase now (one count over an index; read only when scraped). */
  candidatesInExam(): Promise<number>;
  /** Candidates waiting for their turn to enter, as this process last saw the shared admission queue. */
  admissionQueue(): number;
  /** Free bytes of the data directory's filesystem, and the reserve the local store keeps there (0 when none). */
  disk(): Promise<{ freeBytes: number; reserveBytes: number }>;
}

/** Buckets of request latency, seconds: from a cached read to a slow upload. */
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Buckets of jobs, judge runs and face checks, seconds: they take longer. */
const WORK_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800];

/** The metrics of one app. */
export class Metrics implements Instruments {
  readonly registry = new Registry();
  private readonly requests: Counter<'call' | 'method' | 'status'>;
  private readonly latency: Histogram<'call' | 'method' | 'status'>;
  private readonly saves: Counter;
  private readonly jobs: Histogram<'kind' | 'outcome'>;
  private readonly judge: Histogram<'mode' | 'verdict'>;
  private readonly face: Histogram<'outcome'>;
  private readonly streams: Gauge<'call'>;
  private readonly periodic: Histogram<'task' | 'outcome'>;
  private readonly storeErrors: Counter<'operation'>;
  private readonly dbErrors: Counter<'kind'>;
  private gauges: Gauges | undefined;

  /**
   * `process` names this process among those that answer on one address (the supervisor's API processes share a
   * port): every series carries it, so one process's counters and start time are never read as another's.
   */
  constructor(opts: { process?: string | undefined } = {}) {
    const registers = [this.registry];
    if (opts.process !== undefined) this.registry.setDefaultLabels({ process: opts.process });
    collectDefaultMetrics({ register: this.registry, prefix: 'examhall_' });
    this.requests = new Counter({
      name: 'examhall_http_requests_total',
      help: 'HTTP requests by call (declared path), method and status',
      labelNames: ['call', 'method', 'status'],
      registers,
    });
    this.latency = new Histogram({
      name: 'examhall_http_request_duration_seconds',
      help: 'HTTP request latency by call, method and status',
      labelNames: ['call', 'method', 'status'],
      buckets: REQUEST_BUCKETS,
      registers,
    });
    this.saves = new Counter({ name: 'examhall_answer_saves_total', help: 'Answer saves committed', registers });
    this.jobs = new Histogram({
      name: 'examhall_job_duration_seconds',
      help: 'Job runs by kind and outcome',
      labelNames: ['kind', 'outcome'],
      buckets: WORK_BUCKETS,
      registers,
    });
    this.judge = new Histogram({
      name: 'examhall_judge_duration_seconds',
      help: 'Judge jobs from submit to result, by mode and verdict',
      labelNames: ['mode', 'verdict'],
      buckets: WORK_BUCKETS,
      registers,
    });
    this.face = new Histogram({
      name: 'examhall_face_check_duration_seconds',
      help: 'Face checks by outcome',
      labelNames: ['outcome'],
      buckets: WORK_BUCKETS,
      registers,
    });
    this.streams = new Gauge({
      name: 'examhall_event_streams_open',
      help: 'Server-sent event streams open now, by call',
      labelNames: ['call'],
      registers,
    });
    this.periodic = new Histogram({
      name: 'examhall_periodic_task_duration_seconds',
      help: 'Periodic task runs (sweeps, SMS dispatch) in this process, by task and outcome',
      labelNames: ['task', 'outcome'],
      buckets: WORK_BUCKETS,
      registers,
    });
    this.storeErrors = new Counter({
      name: 'examhall_store_errors_total',
      help: 'Object store calls that failed, by operation',
      labelNames: ['operation'],
      registers,
    });
    for (const operation of STORE_OPERATIONS) this.storeErrors.inc({ operation }, 0);
    this.dbErrors = new Counter({
      name: 'examhall_db_errors_total',
      help: 'Database statements that failed, by kind (unavailable, constraint, other)',
      labelNames: ['kind'],
      registers,
    });
    for (const kind of DB_ERROR_KINDS) this.dbErrors.inc({ kind }, 0);
    const gauges = () => this.gauges;
    new Gauge({
      name: 'examhall_candidates_in_exam',
      help: 'Attempts in the exam phase now, across the cluster (the database counts them)',
      registers,
      async collect() {
        this.set((await gauges()?.candidatesInExam()) ?? 0);
      },
    });
    new Gauge({
      name: 'examhall_admission_queue_length',
      help: 'Candidates waiting for their turn to enter an exam, as this process last saw the shared queue',
      registers,
      collect() {
        this.set(gauges()?.admissionQueue() ?? 0);
      },
    });
    // Both read from one statfs per scrape.
    let disk: Promise<{ freeBytes: number; reserveBytes: number } | undefined> | undefined;
    const readDisk = () =>
      (disk ??= (gauges()?.disk() ?? Promise.resolve(undefined)).finally(() => (disk = undefined)));
    new Gauge({
      name: 'examhall_disk_free_bytes',
      help: "Free bytes of the data directory's filesystem (DATA_DIR: the SQLite database and the local store)",
      registers,
      async collect() {
        this.set((await readDisk())?.freeBytes ?? 0);
      },
    });
    new Gauge({
      name: 'examhall_disk_reserve_bytes',
      help: 'Bytes of that filesystem the local store leaves to the database (STORAGE_RESERVE_MB; 0 when none)',
      registers,
      async collect() {
        this.set((await readDisk())?.reserveBytes ?? 0);
      },
    });
    new Gauge({
      name: 'examhall_jobs',
      help: 'Jobs queued and running, by kind and state',
      labelNames: ['kind', 'state'],
      registers,
      async collect() {
        this.reset();
        for (const d of (await gauges()?.jobDepths()) ?? []) this.set({ kind: d.kind, state: d.state }, d.count);
      },
    });
    new Gauge({
      name: 'examhall_judge_jobs_waiting',
      help: 'Judge jobs this process submitted and waits for',
      registers,
      collect() {
        this.set(gauges()?.judgeWaiting() ?? 0);
      },
    });
    new Gauge({
      name: 'examhall_db_pool_connections',
      help: 'Database pool connections by state (total, idle; waiting: queries waiting for one)',
      labelNames: ['state'],
      registers,
      collect() {
        this.reset();
        const pool = gauges()?.pool();
        if (!pool) return;
        this.set({ state: 'total' }, pool.total);
        if (pool.idle !== undefined) this.set({ state: 'idle' }, pool.idle);
        if (pool.waiting !== undefined) this.set({ state: 'waiting' }, pool.waiting);
      },
    });
  }

  /** Where the scrape-time values come from (set once the services exist). */
  readFrom(gauges: Gauges): void {
    this.gauges = gauges;
  }

  /** The text exposition and its content type. */
  async scrape(): Promise<{ text: string; contentType: string }> {
    return { text: await this.registry.metrics(), contentType: this.registry.contentType };
  }

  request(call: string, method: string, status: number, seconds: number): void {
    const labels = { call, method, status: String(status) };
    this.requests.inc(labels);
    this.latency.observe(labels, seconds);
  }

  answerSaved(): void {
    this.saves.inc();
  }

  jobFinished(kind: string, outcome: string, seconds: number): void {
    this.jobs.observe({ kind, outcome }, seconds);
  }

  judged(mode: string, verdict: string, seconds: number): void {
    this.judge.observe({ mode, verdict }, seconds);
  }

  faceChecked(outcome: 'ok' | 'error', seconds: number): void {
    this.face.observe({ outcome }, seconds);
  }

  streamOpen(call: string, delta: 1 | -1): void {
    this.streams.inc({ call }, delta);
  }

  periodicRan(task: string, outcome: 'done' | 'failed', seconds: number): void {
    this.periodic.observe({ task, outcome }, seconds);
  }

  storeFailed(operation: string): void {
    this.storeErrors.inc({ operation });
  }

  dbFailed(kind: DbErrorKind): void {
    this.dbErrors.inc({ kind });
  }
}

/**
 * The metrics of a judge worker process (`examhall judge-worker`): the process's own and the jobs it judged, from
 * the moment it took each one to its result.
 */
export class JudgeWorkerMetrics {
  readonly registry = new Registry();
  private readonly runs: Histogram<'verdict'>;
  private readonly active: Gauge;

  constructor() {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, prefix: 'examhall_' });
    this.runs = new Histogram({
      name: 'examhall_judge_worker_run_duration_seconds',
      help: 'Judge jobs this worker ran, from taking one to its result, by verdict (failed: no result)',
      labelNames: ['verdict'],
      buckets: WORK_BUCKETS,
      registers,
    });
    this.active = new Gauge({ name: 'examhall_judge_worker_jobs_active', help: 'Judge jobs running now', registers });
  }

  /** A job was taken. */
  started(): void {
    this.active.inc();
  }

  /** A job taken ended with `verdict` (`failed` when it gave no result), `seconds` after it was taken. */
  ended(verdict: string, seconds: number): void {
    this.active.dec();
    this.runs.observe({ verdict }, seconds);
  }

  /** The text exposition and its content type. */
  async scrape(): Promise<{ text: string; contentType: string }> {
    return { text: await this.registry.metrics(), contentType: this.registry.contentType };
  }
}

/** `task` with each run's duration reported. */
export function timedTask<T extends { name: string; run(): Promise<unknown> }>(task: T, metrics: Instruments): T {
  return {
    ...task,
    run: async () => {
      const started = performance.now();
      try {
        const out = await task.run();
        metrics.periodicRan(task.name, 'done', secondsSince(started));
        return out;
      } catch (err) {
        metrics.periodicRan(task.name, 'failed', secondsSince(started));
        throw err;
      }
    },
  };
}

/** Seconds since `started` (a `performance.now()` reading). */
export function secondsSince(started: number): number {
  return (performance.now() - started) / 1000;
}
