/**
 * Runs and submits of programming questions, framework-free: start a job, follow it until it is
 * done, and keep the last outcome per question so it is still there when the candidate comes back
 * (after a reload, the server's newest run or submit stands in for it).
 */
import { type JudgeData, type JudgeLatestData, type LanguageId, type Verdict, subjectCalls } from '@examhall/contract';
import { ApiError, isApiError, request } from '../api/client.js';
import type { BaseMessageKey as MessageKey } from '../i18n/zh.js';
import { onSessionEnd } from '../session/sessionEnd.js';

/** How often a job's status is asked for while it runs. */
export const POLL_INTERVAL_MS = 500;
/** Status calls that may fail in a row (after the client's own retries) before the page gives up. */
export const MAX_POLL_FAILURES = 5;
/** Attempts at starting a job when no answer arrived; the same client id makes each one safe. */
export const MAX_START_ATTEMPTS = 3;

/** What the candidate asked for. */
export interface JudgeRequest {
  examId: number;
  subjectId: number;
  language: LanguageId;
  code: string;
  mode: 'run' | 'submit';
  /** Custom standard input of a run; absent for the samples. */
  input?: string;
}

/** What the runner needs from its surroundings (injected in tests). */
export interface JudgeDeps {
  start: (req: JudgeRequest, clientId: string) => Promise<JudgeData>;
  status: (examId: number, jobId: string) => Promise<JudgeData>;
  /** The newest run and submit of a question in the candidate's current attempt. */
  latest: (examId: number, subjectId: number) => Promise<JudgeLatestData>;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  newId: () => string;
}

function abortable(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new DOMException('aborted', 'AbortError'));
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(new DOMException('aborted', 'AbortError'));
      },
      { once: true },
    );
  });
}

export const browserJudgeDeps: JudgeDeps = {
  start: (req, clientId) =>
    request(subjectCalls.judge, {
      body: {
        exam_id: req.examId,
        subject_id: req.subjectId,
        language: req.language,
        code: req.code,
        mode: req.mode,
        ...(req.input !== undefined ? { input: req.input } : {}),
        client_id: clientId,
      },
    }),
  status: (examId, jobId) => request(subjectCalls.judgeStatus, { query: { exam_id: examId, job_id: jobId } }),
  latest: (examId, subjectId) =>
    request(subjectCalls.judgeLatest, { query: { exam_id: examId, subject_id: subjectId } }),
  sleep: abortable,
  newId: () => crypto.randomUUID(),
};

/** A start that got no answer (or a passing server fault) may have reached the server: ask again, same id. */
function startRetryable(e: unknown): boolean {
  if (!isApiError(e)) return false;
  if (e.code === 'language_unavailable') return false;
  return e.status === 0 || e.status === 500 || e.status === 502 || e.status === 504;
}

/**
 * Starts a job with a fresh client id and polls it until it is done, reporting every state seen.
 * Resolves with the finished job; rejects with the server's ApiError (or an AbortError).
 */
export async function judge(
  req: JudgeRequest,
  onUpdate: (data: JudgeData) => void,
  deps: JudgeDeps = browserJudgeDeps,
  signal?: AbortSignal,
): Promise<JudgeData> {
  const clientId = deps.newId();
  let data: JudgeData | undefined;
  for (let attempt = 1; data === undefined; attempt++) {
    try {
      data = await deps.start(req, clientId);
    } catch (e) {
      if (attempt >= MAX_START_ATTEMPTS || !startRetryable(e)) throw e;
      await deps.sleep(POLL_INTERVAL_MS * attempt, signal);
    }
  }
  onUpdate(data);
  return follow(req.examId, data, onUpdate, deps, signal);
}

/** Polls a started job until it is done. */
export async function follow(
  examId: number,
  first: JudgeData,
  onUpdate: (data: JudgeData) => void,
  deps: JudgeDeps = browserJudgeDeps,
  signal?: AbortSignal,
): Promise<JudgeData> {
  let data = first;
  let failures = 0;
  while (data.state !== 'done') {
    await deps.sleep(POLL_INTERVAL_MS, signal);
    try {
      data = await deps.status(examId, data.job_id);
      failures = 0;
      onUpdate(data);
    } catch (e) {
      // A lost network is worth waiting out; a refusal (the job is gone, the exam is over) is not.
      const passing = isApiError(e) && (e.status === 0 || e.status >= 500 || e.status === 429);
      if (!passing || ++failures >= MAX_POLL_FAILURES) throw e;
    }
  }
  return data;
}

/** Cases judged so far, counting each case once even if the server repeats it. */
export function casesDone(data: JudgeData): number {
  return new Set(data.cases.map((c) => c.index)).size;
}

/** Percent of the cases judged, for the progress bar. */
export function progressPercent(data: JudgeData): number {
  if (data.state === 'done') return 100;
  if (data.total <= 0) return 0;
  return Math.min(100, Math.round((casesDone(data) / data.total) * 100));
}

/** The tag color of a verdict: green passes, red wrong, orange over a limit, gold does not compile. */
export function verdictColor(v: Verdict): string {
  switch (v) {
    case 'AC':
      return 'green';
    case 'WA':
      return 'red';
    case 'TLE':
    case 'MLE':
    case 'OLE':
      return 'orange';
    case 'RE':
      return 'magenta';
    case 'CE':
      return 'gold';
    case 'SE':
      return 'default';
  }
}

const VERDICT_NAMES: Record<Verdict | 'RAN', MessageKey> = {
  AC: 'judge.verdict.AC',
  WA: 'judge.verdict.WA',
  TLE: 'judge.verdict.TLE',
  MLE: 'judge.verdict.MLE',
  OLE: 'judge.verdict.OLE',
  RE: 'judge.verdict.RE',
  CE: 'judge.verdict.CE',
  SE: 'judge.verdict.SE',
  RAN: 'judge.verdict.RAN',
};
const VERDICT_HELP: Record<Verdict | 'RAN', MessageKey> = {
  AC: 'judge.help.AC',
  WA: 'judge.help.WA',
  TLE: 'judge.help.TLE',
  MLE: 'judge.help.MLE',
  OLE: 'judge.help.OLE',
  RE: 'judge.help.RE',
  CE: 'judge.help.CE',
  SE: 'judge.help.SE',
  RAN: 'judge.help.RAN',
};

/**
 * The message keys of a verdict's name and explanation. A custom-input run has nothing to compare
 * with, so its AC only means the program ran and ended normally.
 */
export function verdictKeys(v: Verdict, customInput: boolean): { name: MessageKey; help: MessageKey } {
  const id = v === 'AC' && customInput ? 'RAN' : v;
  return { name: VERDICT_NAMES[id], help: VERDICT_HELP[id] };
}

/** The state of a question's run or submit, as the page shows it. */
export interface JudgeRun {
  mode: 'run' | 'submit';
  /** The custom input the run used, or null for the samples or a submit. */
  input: string | null;
  language: LanguageId;
  /** 'saving': the answer is being saved; 'judging': the job runs; then done or failed. */
  phase: 'saving' | 'judging' | 'done' | 'failed';
  data: JudgeData | null;
  error: { code: ApiError['code']; msg: string } | null;
}

/**
 * The newer of a question's last run and last submit as the page shows it (a tie goes to the submit,
 * the one that scores; a job not done yet is 'judging'), or null when there is neither.
 */
export function newestRun({ run, submit }: JudgeLatestData): JudgeRun | null {
  const newest = run && submit ? (run.started_at > submit.started_at ? run : submit) : (run ?? submit);
  if (!newest) return null;
  const { language, input, started_at: _started, ...data } = newest;
  return {
    mode: newest === run ? 'run' : 'submit',
    input,
    language,
    phase: data.state === 'done' ? 'done' : 'judging',
    data,
    error: null,
  };
}

function failure(e: unknown): { code: ApiError['code']; msg: string } {
  const error = isApiError(e) ? e : new ApiError('network_error', 0, e instanceof Error ? e.message : String(e));
  return { code: error.code, msg: error.msg };
}

/** The last run or submit of each question, shared by every mount of the question in this tab. */
export class JudgeRuns {
  private readonly runs = new Map<string, JudgeRun>();
  private readonly listeners = new Set<() => void>();
  /** Questions whose newest run is being loaded from the server, so two mounts load it once. */
  private readonly restoring = new Set<string>();
  /** Bumped by clear(): a job started before it no longer writes its outcome. */
  private generation = 0;

  constructor(private readonly deps: JudgeDeps = browserJudgeDeps) {}

  static key(examId: number, subjectId: number): string {
    return `${examId}:${subjectId}`;
  }

  subscribe = (fn: () => void): (() => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };

  get(examId: number, subjectId: number): JudgeRun | undefined {
    return this.runs.get(JudgeRuns.key(examId, subjectId));
  }

  /** True while the question has a job saving or running. */
  busy(examId: number, subjectId: number): boolean {
    const r = this.get(examId, subjectId);
    return r !== undefined && (r.phase === 'saving' || r.phase === 'judging');
  }

  /** Forgets every outcome (a logout: the next candidate in this tab must not see them). */
  clear(): void {
    this.generation++;
    this.runs.clear();
    this.restoring.clear();
    for (const fn of this.listeners) fn();
  }

  private set(key: string, run: JudgeRun, generation: number): void {
    if (generation !== this.generation) return;
    this.runs.set(key, run);
    for (const fn of this.listeners) fn();
  }

  /**
   * Saves the answer with `save`, then judges and follows the job. Resolves with the outcome;
   * an error is kept for the page to show and also answered, so the caller can act on its code.
   */
  async start(req: JudgeRequest, save: () => Promise<void>): Promise<JudgeRun> {
    const key = JudgeRuns.key(req.examId, req.subjectId);
    const generation = this.generation;
    if (this.busy(req.examId, req.subjectId)) return this.runs.get(key)!;
    const run: JudgeRun = {
      mode: req.mode,
      input: req.input ?? null,
      language: req.language,
      phase: 'saving',
      data: null,
      error: null,
    };
    this.set(key, run, generation);
    return this.settle(key, run, generation, async (update) => {
      await save();
      update({ phase: 'judging' });
      return judge(req, (data) => update({ data }), this.deps);
    });
  }

  /** Shows every step of `job` as it comes, then its outcome or its failure; answers the last state. */
  private async settle(
    key: string,
    first: JudgeRun,
    generation: number,
    job: (update: (patch: Partial<JudgeRun>) => void) => Promise<JudgeData>,
  ): Promise<JudgeRun> {
    let run = first;
    const update = (patch: Partial<JudgeRun>) => {
      run = { ...run, ...patch };
      this.set(key, run, generation);
    };
    try {
      update({ phase: 'done', data: await job(update) });
    } catch (e) {
      update({ phase: 'failed', error: failure(e) });
    }
    return run;
  }

  /**
   * When this tab has nothing for the question (a reload), shows its newest run or submit from the
   * server and follows it on if it is still being judged. A failed load shows nothing, as before; a
   * run the candidate started meanwhile, or a clear(), wins over the answer.
   */
  async restore(examId: number, subjectId: number): Promise<void> {
    const key = JudgeRuns.key(examId, subjectId);
    if (this.runs.has(key) || this.restoring.has(key)) return;
    const generation = this.generation;
    this.restoring.add(key);
    let found: JudgeRun | null;
    try {
      found = newestRun(await this.deps.latest(examId, subjectId));
    } catch {
      // The next visit to the question tries again.
      found = null;
    } finally {
      // After a clear() the set is another generation's.
      if (generation === this.generation) this.restoring.delete(key);
    }
    if (!found || generation !== this.generation || this.runs.has(key)) return;
    this.set(key, found, generation);
    const first = found.data;
    if (found.phase === 'done' || !first) return;
    await this.settle(key, found, generation, (update) => follow(examId, first, (data) => update({ data }), this.deps));
  }
}

/** The page's runs: they outlive a question's component, so a result is still there after moving on and back. */
export const judgeRuns = new JudgeRuns();
// The next candidate in this tab must not see them.
onSessionEnd(() => judgeRuns.clear());
