import {
  CODE_LIMITS,
  type CheckerField,
  type JudgeData,
  type JudgeLatestData,
  type JudgeLatestItem,
  type LanguageId,
} from '@examhall/contract';
import { availability, toJudgeData, type JudgeQueue, type JudgeResult, type JudgeTask } from '@examhall/judge';
import type { ServiceLog } from '../log.js';
import type { Db } from '../db/database.js';
import { fail } from '../errors.js';
import { bodyOf } from './storedQuestion.js';
import type { RateLimiter } from '../ratelimit/limiter.js';
import { AttemptRepository } from '../repositories/attempts.js';
import type { Candidate } from '../repositories/candidates.js';
import { JudgeRunRepository, type JudgeRunRow } from '../repositories/judgeRuns.js';
import type { AttemptService } from './attempts.js';
import type { CatalogQuestion, ExamBundle } from './catalog.js';
import { NO_INSTRUMENTS, secondsSince, type Instruments } from '../ops/metrics.js';

/** The judge's form of a question's checker: a built-in one by name, a custom one as its program. */
function judgeChecker(checker: CheckerField): NonNullable<JudgeTask['checker']> {
  return typeof checker === 'string' ? checker : { kind: 'custom', language: checker.language, source: checker.source };
}

/** A programming or programming Q&A question of the exam, or not_found. */
function programmingQuestion(bundle: ExamBundle, subjectId: number): CatalogQuestion {
  const q = bundle.byId.get(subjectId);
  if (!q || (q.kind !== 'programming' && q.kind !== 'programming_qa')) {
    throw fail('not_found', 'no such programming question in this exam');
  }
  return q;
}

/** A job still unfinished this long after it was queued is looked for in the queue, and queued again if it is lost. */
export const JUDGE_REQUEUE_AFTER_MS = 30_000;
/** Unfinished jobs looked at per sweep. */
const REQUEUE_BATCH = 200;

/** What a run whose job was lost and cannot be queued again answers. */
function lostJob(run: JudgeRunRow): JudgeData {
  return {
    job_id: run.job_id,
    state: 'done',
    verdict: 'SE',
    cases: [],
    total: run.total,
    compile_output: 'the judge lost this job; please run it again',
  };
}

/**
 * The judge's task for a run (the samples, or the candidate's own input) or a submit (the hidden cases) of a
 * programming or programming Q&A question; validation_error when there is nothing to run it on.
 */
function judgeTask(
  q: CatalogQuestion,
  mode: JudgeRequest['mode'],
  language: JudgeTask['language'],
  source: string,
  input: string | undefined,
): JudgeTask {
  const body = bodyOf(q);
  if (body.kind !== 'programming' && body.kind !== 'programming_qa')
    throw fail('not_found', 'no such programming question in this exam');
  const programming = body.kind === 'programming' ? body : null;
  const samples = (programming?.content.samples ?? []).map((s) => ({ input: s.input, expected: s.output }));
  const cases =
    mode === 'submit'
      ? (programming?.key.cases ?? []).map((s) => ({ input: s.input, expected: s.output }))
      : input !== undefined
        ? [{ input }]
        : samples;
  if (cases.length === 0)
    throw fail(
      'validation_error',
      mode === 'submit' ? 'this question has no test cases' : 'input: give an input; this question has no samples',
    );
  return {
    language,
    source,
    cases,
    timeLimitMs: programming?.content.time_limit_ms ?? CODE_LIMITS.timeMs.default,
    memoryLimitMb: programming?.content.memory_limit_mb ?? CODE_LIMITS.memoryMb.default,
    ...(programming ? { checker: judgeChecker(programming.key.checker) } : {}),
    returnOutput: mode === 'run',
  };
}

/** Runs and submits a candidate may start per minute. */
export const JUDGE_RATE = { runs: 20, submits: 6, windowMs: 60_000 } as const;

/** What /answer/judge takes, validated. */
export interface JudgeRequest {
  exam_id: number;
  subject_id: number;
  language: JudgeTask['language'];
  code: string;
  mode: 'run' | 'submit';
  input?: string | undefined;
  client_id: string;
}

/**
 * Runs candidates' code: 'run' on the question's samples or the candidate's own input, 'submit' on the
 * hidden cases, whose inputs and outputs never leave the server (only verdict, time and memory per case).
 * A finished submit scores a programming question: its points times the share of cases passed.
 */
export class JudgeService {
  private readonly runs: JudgeRunRepository;
  private readonly attemptRepo: AttemptRepository;
  private readonly recording = new Set<Promise<void>>();

  constructor(
    db: Db,
    private readonly attempts: AttemptService,
    private readonly queue: JudgeQueue,
    private readonly limiter: RateLimiter,
    private readonly clock: () => number,
    private readonly log: ServiceLog,
    private readonly metrics: Instruments = NO_INSTRUMENTS,
  ) {
    this.runs = new JudgeRunRepository(db);
    this.attemptRepo = new AttemptRepository(db);
  }

  /** Queues a run or submit (idempotent by client id) and answers the job as it stands. */
  async start(c: Candidate, req: JudgeRequest): Promise<JudgeData> {
    const { attempt, bundle } = await this.attempts.writable(c, req.exam_id);
    const q = programmingQuestion(bundle, req.subject_id);
    const seen = await this.runs.byClientId(attempt.id, req.client_id);
    if (seen) return this.view(seen);
    const body = bodyOf(q);
    if (body.kind !== 'programming' && body.kind !== 'programming_qa')
      throw fail('not_found', 'no such programming question in this exam');
    if (!body.content.languages.includes(req.language)) {
      throw fail('validation_error', 'language: not offered by this question');
    }
    if (req.mode === 'submit' && body.kind !== 'programming') {
      throw fail('validation_error', 'mode: a programming Q&A answer is graded by a person; it can only be run');
    }
    const have = await availability(req.language);
    if (!have.available)
      throw fail('language_unavailable', `${req.language}: ${have.reason ?? 'toolchain not installed on this host'}`);
    const rate = req.mode === 'submit' ? JUDGE_RATE.submits : JUDGE_RATE.runs;
    if (!(await this.limiter.hit(`judge:${req.mode}:${c.id}`, rate, JUDGE_RATE.windowMs)).allowed)
      throw fail('rate_limited');

    const task = judgeTask(q, req.mode, req.language, req.code, req.input);
    const jobId = await this.queue.submit(task);
    await this.runs.create({
      attempt_id: attempt.id,
      question_id: q.id,
      job_id: jobId,
      mode: req.mode,
      input: req.mode === 'run' ? (req.input ?? null) : null,
      language: req.language,
      source: req.code,
      client_id: req.client_id,
      created_at: this.clock(),
      total: task.cases.length,
    });
    this.follow(jobId, req.mode);
    return this.view((await this.runs.byClientId(attempt.id, req.client_id))!);
  }

  /**
   * Records a job's outcome when it ends. A status call records it too, and the requeue sweep finds a job whose
   * outcome this process never saw, so a restart in between loses nothing.
   */
  private follow(jobId: string, mode: string): void {
    const submitted = performance.now();
    const recording = this.queue
      .wait(jobId)
      .then((result) => {
        this.metrics.judged(mode, result.verdict, secondsSince(submitted));
        return this.record(jobId, mode, result);
      })
      .catch((err: unknown) => this.log.warn({ err, jobId }, 'judge job outcome not recorded'))
      .finally(() => this.recording.delete(recording));
    this.recording.add(recording);
  }

  /**
   * Jobs queued more than JUDGE_REQUEUE_AFTER_MS ago and still unfinished: an outcome the queue holds is recorded,
   * and a job the queue lost (an in-process queue that restarted, a Redis restarted without its data) is queued
   * again under its id from what the run stored, so every accepted run and submit ends with a verdict. Once per
   * period across the cluster; answers how many were queued again.
   */
  async requeueLost(): Promise<number> {
    const due = await this.runs.unfinished(this.clock() - JUDGE_REQUEUE_AFTER_MS, REQUEUE_BATCH);
    let requeued = 0;
    for (const run of due) {
      const status = await this.queue.status(run.job_id);
      if (status?.state === 'done' && status.result) await this.record(run.job_id, run.mode, status.result);
      else if (!status && (await this.requeue(run))) requeued++;
    }
    if (requeued > 0) this.log.info({ requeued }, 'judge jobs lost by the queue queued again');
    return requeued;
  }

  /** Queues a lost job again under its id; false (and a recorded system error) when it can no longer be built. */
  private async requeue(run: JudgeRunRow): Promise<boolean> {
    const attempt = await this.attemptRepo.byId(run.attempt_id);
    const q = attempt ? (await this.attempts.bundleOf(attempt)).byId.get(run.question_id) : undefined;
    let task: JudgeTask;
    try {
      if (!q) throw fail('not_found', 'the question is no longer in the attempt');
      // The column holds what /answer/judge accepted.
      task = judgeTask(
        q,
        run.mode as JudgeRequest['mode'],
        run.language as JudgeTask['language'],
        run.source,
        run.input ?? undefined,
      );
    } catch (err) {
      this.log.warn({ err, jobId: run.job_id }, 'lost judge job cannot be queued again');
      await this.runs.finish(run.job_id, {
        verdict: 'SE',
        passed: 0,
        result: JSON.stringify(lostJob(run)),
        finished_at: this.clock(),
      });
      return false;
    }
    await this.queue.submit(task, run.job_id);
    this.follow(run.job_id, run.mode);
    return true;
  }

  /** Waits for the jobs this process started to end and their outcomes to be recorded (on shutdown). */
  /** How many jobs this process submitted and waits for. */
  get waiting(): number {
    return this.recording.size;
  }

  async drain(): Promise<void> {
    await Promise.allSettled([...this.recording]);
  }

  /** A job of the candidate's, as it stands. */
  async status(c: Candidate, examId: number, jobId: string): Promise<JudgeData> {
    const ids = await this.attemptRepo.idsOf(c.id, examId);
    const run = await this.runs.byJob(ids, jobId);
    if (!run) throw fail('not_found', 'no such run');
    return this.view(run);
  }

  /**
   * The newest run and submit of a programming question in the candidate's current attempt, built like
   * judge-status answers them (a submit carries verdicts only; a job in progress is answered as such),
   * with the language, the candidate's own input of a run, and when each was started.
   */
  async latest(c: Candidate, examId: number, subjectId: number): Promise<JudgeLatestData> {
    await this.attempts.head(examId);
    const attempt = await this.attempts.current(c, examId);
    // The attempt's own questions; before an attempt, the published version's.
    const q = programmingQuestion(
      attempt ? await this.attempts.bundleOf(attempt) : await this.attempts.bundle(examId),
      subjectId,
    );
    if (!attempt) return { run: null, submit: null };
    const [run, submit] = await Promise.all([
      this.runs.latest(attempt.id, q.id, 'run'),
      this.runs.latest(attempt.id, q.id, 'submit'),
    ]);
    return { run: run ? await this.latestItem(run) : null, submit: submit ? await this.latestItem(submit) : null };
  }

  private async latestItem(run: JudgeRunRow): Promise<JudgeLatestItem> {
    return {
      ...(await this.view(run)),
      // The column holds what /answer/judge accepted, which the contract's language list checked.
      language: run.language as LanguageId,
      input: run.input,
      started_at: run.created_at,
    };
  }

  private async view(run: JudgeRunRow): Promise<JudgeData> {
    if (run.result) return JSON.parse(run.result) as JudgeData;
    let status = await this.queue.status(run.job_id);
    if (!status) {
      // The queue lost the job (an in-process queue restarted, Redis without its data): queued again at once.
      if (!(await this.requeue(run))) return lostJob(run);
      status = await this.queue.status(run.job_id);
      if (!status) return { job_id: run.job_id, state: 'queued', verdict: null, cases: [], total: run.total };
    }
    const data = toJudgeData(status, run.mode === 'run');
    if (status.state === 'done' && status.result) await this.record(run.job_id, run.mode, status.result);
    return data;
  }

  /** Stores a finished job once and, for a submit, rescores a finished attempt. */
  private async record(jobId: string, mode: string, result: JudgeResult): Promise<void> {
    const data = toJudgeData(
      { id: jobId, state: 'done', cases: result.cases, total: result.total, result },
      mode === 'run',
    );
    const passed = result.cases.filter((r) => r.verdict === 'AC').length;
    const stored = await this.runs.finish(jobId, {
      verdict: result.verdict,
      passed,
      result: JSON.stringify(data),
      finished_at: this.clock(),
    });
    if (stored && mode === 'submit') {
      const run = await this.runs.byJobId(jobId);
      if (run) await this.attempts.rescoreIfFinished(run.attempt_id);
    }
  }
}
