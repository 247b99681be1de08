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
}

/** Reports nothing: for code built without an app (command line, test workers). */
export const NO_INSTRUMENTS: Instruments = {
  request: () => undefined,
  answerSaved: () => undefined,
  jobFinished: () => undefined,
  judged: () => undefined,
  faceChecked: () => undefined,
  streamOpen: () => undefined,
  periodicRan: () => undefined,
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
  private gauges: Gauges | undefined;

  constructor() {
    const registers = [this.registry];
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
    const gauges = () => this.gauges;
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
