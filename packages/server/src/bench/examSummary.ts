/** What the exam bench is given and what it reports, shared by the bench and its chart. */
import type { MixOptions } from './examMix.js';
import type { ServerLaunch } from './harness.js';

/** What a run is asked for. */
export interface ExamBenchOptions extends Omit<
  MixOptions,
  'bases' | 'store' | 'examId' | 'phones' | 'codeOf' | 'opensAt'
> {
  candidates: number;
  /** The server's ADMISSION_RATE (entries a second when everyone presses start at once); absent, its default. */
  admissionRate?: number;
  dialect: 'sqlite' | 'postgres';
  /**
   * 1: one process on its embedded store (the database `dialect`). More: a cluster of that many API processes
   * (CLUSTER=true) on a fresh PostgreSQL database, a Redis server of its own and s3rver, all on loopback.
   */
  apiProcesses?: number;
  /** Folder of the JSON and HTML written. */
  outDir: string;
  /** Extra server environment (e.g. WEB_DIST). */
  serverEnv?: Record<string, string>;
  launch?: ServerLaunch;
}

/** One call's figures. */
export interface CallFigures {
  call: string;
  count: number;
  rps: number;
  p50_ms: number;
  p95_ms: number;
  p99_ms: number;
  max_ms: number;
  errors: number;
  error_samples: string[];
}

/** One API process's share of the run. */
export interface ProcessFigures {
  base: string;
  /** Candidates' requests it answered (the no-op, the event streams and the store's puts aside). */
  requests: number;
  cpu_s: number | null;
  cpu_share_of_one_core: number | null;
  peak_rss_mb: number;
}

/** The last line's object and the JSON file's summary. */
export interface ExamBenchSummary {
  candidates: number;
  errors: number;
  p99_ms: Record<string, number>;
  calls: CallFigures[];
  /** From the opening to each candidate's first question, and from its press of start. */
  first_question_s: { seen: number; p99: number; max: number; from_start_p99: number; from_start_max: number };
  server: { cpu_s: number | null; cpu_share_of_one_core: number | null; peak_rss_mb: number };
  /** Each API process (one in the single-process mode): `server` adds their CPU and their peaks up. */
  processes: ProcessFigures[];
  /**
   * The cluster's other parts, CPU seconds during the mix: PostgreSQL's backends of the run's database (read every
   * 2 s, so a backend closed meanwhile counts up to its last reading), Redis, s3rver. Empty in the single-process mode.
   */
  parts: Record<string, number>;
  /** The load process itself, to show it stays light. */
  load: { cpu_s: number; peak_rss_mb: number; pool_wait_p50_ms: number; pool_wait_p99_ms: number };
  seconds: number;
  options: Omit<ExamBenchOptions, 'launch' | 'serverEnv' | 'outDir'>;
  files: { json: string; html: string };
}
