import { createHash, randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { chmod, mkdir, open, readdir, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Verdict } from '@examhall/contract';
import { check, isCheckerLanguage, parseChecker } from './checkers/index.js';
import type { CheckerSpec } from './checkers/index.js';
import { availability, languageSpec } from './languages/index.js';
import type { LanguageSpec } from './languages/index.js';
import { BOXES } from './limit.js';
import { Box } from './sandbox/box.js';
import { runInSandbox, STATE_DIR } from './sandbox/sandbox.js';
import type { BoxFile, RunResult } from './sandbox/sandbox.js';
import type { JudgeCaseResult, JudgeProgress, JudgeResult, JudgeTask, ProgressListener } from './types.js';

/** Limits of a compilation (in its own box). */
export const COMPILE_LIMITS = {
  cpuMs: 30_000,
  wallMs: 60_000,
  memoryMb: 1536,
  /** Compiler messages kept (the rest is cut). */
  messageBytes: 64 * 1024,
  /** Largest artifact accepted. */
  artifactBytes: 128 * 1024 * 1024,
  /** Writable /box and /tmp of a compile box. */
  boxMb: 768,
};

/** Limits of a custom checker run. */
export const CHECKER_LIMITS = { cpuMs: 10_000, memoryMb: 512, outputBytes: 64 * 1024 };

const DEFAULT_OUTPUT = 64 * 1024 * 1024;
const CACHE_DIR = join(STATE_DIR, 'cache');
const CACHE_KEEP = 2000;

/** A compiled (or literal) program ready to run. */
interface Program {
  spec: LanguageSpec;
  /** Host file bound read-only at `/box/<name>`. */
  file: BoxFile;
  toolDirs: string[];
}

type Compiled =
  | { ok: true; program: Program; cached: boolean }
  | { ok: false; verdict: 'CE' | 'SE'; output: string; cached: boolean };

const inflight = new Map<string, Promise<Compiled>>();
let compilesSincePrune = 0;

async function ensureDir(dir: string, mode: number): Promise<void> {
  await mkdir(dir, { recursive: true, mode });
  await chmod(dir, mode);
}

/** Writes a host-owned, read-only-to-everyone file atomically (content-addressed names never change). */
async function publish(path: string, data: Buffer | string, mode = 0o444): Promise<void> {
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
  await writeFile(tmp, data, { mode, flag: 'wx' });
  await rename(tmp, path);
}

async function readCached(path: string): Promise<Buffer | undefined> {
  try {
    // The cache is host-owned, but O_NOFOLLOW keeps the rule simple: never follow a link here.
    const fh = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
    try {
      return await fh.readFile();
    } finally {
      await fh.close();
    }
  } catch {
    return undefined;
  }
}

async function prune(): Promise<void> {
  const names = await readdir(CACHE_DIR);
  if (names.length <= CACHE_KEEP) return;
  const entries = await Promise.all(
    names.map(async (n) => ({ n, t: (await stat(join(CACHE_DIR, n)).catch(() => undefined))?.mtimeMs ?? 0 })),
  );
  entries.sort((a, b) => a.t - b.t);
  // A running task may still bind an old artifact: bind mounts keep the inode, so unlinking is safe.
  for (const { n } of entries.slice(0, entries.length - CACHE_KEEP))
    await unlink(join(CACHE_DIR, n)).catch(() => undefined);
}

/** Compiles once per (language, compile command, source); later calls share the cached artifact. */
async function compile(spec: LanguageSpec, source: string, toolDirs: string[], taskDir: string): Promise<Compiled> {
  const step = spec.compile;
  const key = createHash('sha256')
    .update(`${spec.id}\0${step?.command ?? ''}\0${source}`)
    .digest('hex');
  await ensureDir(CACHE_DIR, 0o711);
  if (!step) {
    // Interpreted: the "artifact" is the source, stored the same way so runs bind a host-owned file.
    const path = join(CACHE_DIR, `${key}.src`);
    if (!(await readCached(path))) await publish(path, source).catch(() => undefined);
    return { ok: true, cached: false, program: { spec, file: { host: path, box: `/box/${spec.source}` }, toolDirs } };
  }
  const artifactPath = join(CACHE_DIR, `${key}.bin`);
  const errorPath = join(CACHE_DIR, `${key}.ce`);
  const program = (): Program => ({ spec, file: { host: artifactPath, box: `/box/${step.artifact}` }, toolDirs });
  const running = inflight.get(key);
  if (running) return running;
  const job = (async (): Promise<Compiled> => {
    if ((await stat(artifactPath).catch(() => undefined))?.isFile())
      return { ok: true, cached: true, program: program() };
    const ce = await readCached(errorPath);
    if (ce) return { ok: false, verdict: 'CE', output: ce.toString('utf8'), cached: true };
    const srcPath = join(taskDir, `${key.slice(0, 16)}-${spec.source}`);
    await writeFile(srcPath, source, { mode: 0o444 });
    const res = await BOXES.use(() =>
      runInSandbox({
        // The artifact leaves the box through fd 4, so the host never opens a path the box could have swapped.
        argv: ['/bin/sh', '-c', `${step.command} && exec cat ${step.artifact} >&4`],
        files: [{ host: srcPath, box: `/box/${spec.source}` }],
        env: spec.env,
        toolDirs,
        cpuMs: COMPILE_LIMITS.cpuMs,
        wallMs: COMPILE_LIMITS.wallMs,
        memoryMb: COMPILE_LIMITS.memoryMb,
        outputBytes: COMPILE_LIMITS.messageBytes,
        stderrBytes: COMPILE_LIMITS.messageBytes,
        processes: 128,
        fileBytes: COMPILE_LIMITS.artifactBytes,
        boxMb: COMPILE_LIMITS.boxMb,
        artifactBytes: COMPILE_LIMITS.artifactBytes,
        addressSpaceLimit: false,
      }),
    );
    const messages = `${res.stderr.toString('utf8')}${res.stdout.toString('utf8')}`.trim();
    const fail = async (why: string): Promise<Compiled> => {
      const output = [messages, why].filter(Boolean).join('\n');
      // Only a deterministic compile error is cached; limits hit under load may pass next time.
      if (res.outcome === 'exited') await publish(errorPath, output).catch(() => undefined);
      return { ok: false, verdict: 'CE', output, cached: false };
    };
    switch (res.outcome) {
      case 'error':
        return { ok: false, verdict: 'SE', output: res.error ?? 'sandbox error', cached: false };
      case 'cpu':
      case 'wall':
        return fail(`compilation exceeded the time limit (${COMPILE_LIMITS.cpuMs / 1000} s)`);
      case 'memory':
        return fail(`compilation exceeded the memory limit (${COMPILE_LIMITS.memoryMb} MB)`);
      case 'output':
        return fail(res.artifactTooLarge ? 'the compiled program is too large' : 'too much compiler output');
      case 'signaled':
        return fail(`the compiler was killed by signal ${res.signal}`);
      case 'exited':
        if (res.exitCode !== 0 || !res.artifact?.length)
          return fail(messages ? '' : `the compiler exited with code ${res.exitCode}`);
        await publish(artifactPath, res.artifact, 0o555).catch(async (err: unknown) => {
          // Another process published the same key first: theirs is identical in purpose.
          if (!(await stat(artifactPath).catch(() => undefined))) throw err;
        });
        if (++compilesSincePrune >= 100) {
          compilesSincePrune = 0;
          await prune().catch(() => undefined);
        }
        return { ok: true, cached: false, program: program() };
    }
  })();
  inflight.set(key, job);
  try {
    return await job;
  } finally {
    inflight.delete(key);
  }
}

function resolveChecker(checker: JudgeTask['checker']): CheckerSpec {
  if (checker === undefined) return { kind: 'default' };
  if (typeof checker === 'string') return parseChecker(checker);
  if (checker.kind === 'custom' && !isCheckerLanguage(checker.language))
    throw new Error(`unknown checker language ${checker.language}`);
  return checker;
}

function tail(stderr: Buffer): string {
  const text = stderr.toString('utf8').trim();
  return text ? `: ${text.slice(-300)}` : '';
}

function runVerdict(res: RunResult): { verdict: Verdict; message?: string } | undefined {
  switch (res.outcome) {
    case 'error':
      return { verdict: 'SE', message: res.error };
    case 'output':
      return { verdict: 'OLE', message: 'output limit exceeded' };
    case 'memory':
      return { verdict: 'MLE' };
    case 'cpu':
      return { verdict: 'TLE' };
    case 'wall':
      return { verdict: 'TLE', message: 'wall time limit exceeded' };
    case 'signaled':
      return { verdict: 'RE', message: `killed by signal ${res.signal}${tail(res.stderr)}` };
    case 'exited':
      return res.exitCode === 0
        ? undefined
        : { verdict: 'RE', message: `exit code ${res.exitCode}${tail(res.stderr)}` };
  }
}

/** `freshRun` once one of the BOXES is free. */
function boxRun(...run: Parameters<typeof freshRun>): Promise<RunResult> {
  return BOXES.use(() => freshRun(...run));
}

/** One run in a box of its own (compile-like isolation; custom checkers and fallbacks). */
function freshRun(
  program: Program,
  task: JudgeTask,
  stdin: string,
  extraArgs: string[] = [],
  files: BoxFile[] = [],
): Promise<RunResult> {
  const { spec } = program;
  return runInSandbox({
    argv: [...spec.run({ memoryMb: task.memoryLimitMb }), ...extraArgs],
    files: [program.file, ...files],
    env: spec.env,
    toolDirs: program.toolDirs,
    stdin,
    cpuMs: task.timeLimitMs,
    memoryMb: task.memoryLimitMb,
    outputBytes: task.outputLimitBytes ?? DEFAULT_OUTPUT,
    processes: spec.processes ?? 32,
    ...(spec.addressSpaceLimit === false ? { addressSpaceLimit: false } : {}),
  });
}

interface Ctx {
  task: JudgeTask;
  program: Program;
  checker: CheckerSpec;
  checkerProgram?: Program;
  taskDir: string;
}

/** Runs the task's program on one input: in the worker's persistent box, or in a fresh one. */
type CaseRunner = (stdin: string) => Promise<RunResult>;

/**
 * A worker's runner: one persistent box (box.ts) for all the cases the worker takes, reopened when
 * it dies; a case the box could not run (the box failed, not the program) runs again in a fresh box.
 */
function caseRunner(ctx: Omit<Ctx, 'checkerProgram'>): { run: CaseRunner; close(): Promise<void> } {
  const { program, task } = ctx;
  let box: Box | undefined;
  let persistent = process.env.EXAMHALL_JUDGE_FRESH_BOXES !== '1';
  return {
    run: (stdin) =>
      BOXES.use(async () => {
        if (persistent && !box?.usable) {
          await box?.close();
          box = undefined;
          try {
            box = await Box.open({
              argv: program.spec.run({ memoryMb: task.memoryLimitMb }),
              files: [program.file],
              env: program.spec.env,
              toolDirs: program.toolDirs,
              memoryMb: task.memoryLimitMb,
              processes: program.spec.processes ?? 32,
            });
          } catch {
            box = undefined;
          }
          // No persistent boxes here (no cgroup v1) or they cannot start: fresh boxes for this worker.
          if (!box) persistent = false;
        }
        if (persistent && box) {
          const r = await box.run({
            stdin,
            cpuMs: task.timeLimitMs,
            outputBytes: task.outputLimitBytes ?? DEFAULT_OUTPUT,
          });
          // The box failed, not the program: this case runs again in a box of its own.
          if (!r.retry) return r;
        }
        return freshRun(program, task, stdin);
      }),
    close: async () => {
      await box?.close();
    },
  };
}

async function judgeCase(ctx: Ctx, index: number, run: CaseRunner): Promise<JudgeCaseResult> {
  const c = ctx.task.cases[index]!;
  const base = { index: index + 1 };
  let actual: string;
  let res: RunResult | undefined;
  if (ctx.program.spec.literal) {
    actual = ctx.task.source;
  } else {
    res = await run(c.input);
    actual = res.stdout.toString('utf8');
  }
  const usage = { time_ms: res?.cpuMs ?? 0, memory_kb: res?.memoryKb ?? 0 };
  const output = ctx.task.returnOutput ? { output: actual.slice(0, 64 * 1024) } : {};
  const failed = res ? runVerdict(res) : undefined;
  if (failed) return { ...base, ...usage, ...output, ...failed };
  if (c.expected === undefined) return { ...base, verdict: 'AC', ...usage, ...output };
  if (ctx.checker.kind !== 'custom') {
    const r = check(ctx.checker, c.expected, actual);
    return { ...base, verdict: r.ok ? 'AC' : 'WA', ...usage, ...output, ...(r.message ? { message: r.message } : {}) };
  }
  // Custom checker: its own box gets the three texts as host-owned read-only files.
  const dir = join(ctx.taskDir, `case-${index}`);
  await mkdir(dir, { mode: 0o711 });
  await Promise.all([
    writeFile(join(dir, 'input.txt'), c.input, { mode: 0o444 }),
    writeFile(join(dir, 'output.txt'), actual, { mode: 0o444 }),
    writeFile(join(dir, 'expected.txt'), c.expected, { mode: 0o444 }),
  ]);
  const checkerTask: JudgeTask = {
    ...ctx.task,
    timeLimitMs: CHECKER_LIMITS.cpuMs,
    memoryLimitMb: CHECKER_LIMITS.memoryMb,
    outputLimitBytes: CHECKER_LIMITS.outputBytes,
  };
  const cr = await boxRun(
    ctx.checkerProgram!,
    checkerTask,
    '',
    ['/box/check/input.txt', '/box/check/output.txt', '/box/check/expected.txt'],
    [
      { host: join(dir, 'input.txt'), box: '/box/check/input.txt' },
      { host: join(dir, 'output.txt'), box: '/box/check/output.txt' },
      { host: join(dir, 'expected.txt'), box: '/box/check/expected.txt' },
    ],
  );
  const note = `${cr.stdout.toString('utf8')}${cr.stderr.toString('utf8')}`.trim().slice(0, 1024);
  if (cr.outcome === 'exited' && (cr.exitCode === 0 || cr.exitCode === 1)) {
    return {
      ...base,
      verdict: cr.exitCode === 0 ? 'AC' : 'WA',
      ...usage,
      ...output,
      ...(note ? { message: note } : {}),
    };
  }
  return {
    ...base,
    verdict: 'SE',
    ...usage,
    ...output,
    message: `checker failed (${cr.outcome} ${cr.exitCode ?? cr.signal ?? ''}): ${note}`,
  };
}

function emit(listener: ProgressListener | undefined, event: JudgeProgress): void {
  try {
    listener?.(event);
  } catch {
    // a listener's fault must not change the verdict
  }
}

/** Judges a task: compile (cached), run the cases in parallel, check; never throws (faults are SE). */
export async function judge(task: JudgeTask, onProgress?: ProgressListener): Promise<JudgeResult> {
  const total = task.cases.length;
  const taskDir = join(STATE_DIR, 'tasks', `${process.pid}-${randomBytes(8).toString('hex')}`);
  const finish = (verdict: Verdict, cases: JudgeCaseResult[], extra: Partial<JudgeResult> = {}): JudgeResult => ({
    verdict,
    cases,
    total,
    timeMs: Math.max(0, ...cases.map((c) => c.time_ms)),
    memoryKb: Math.max(0, ...cases.map((c) => c.memory_kb)),
    ...extra,
  });
  try {
    await ensureDir(join(STATE_DIR, 'tasks'), 0o711);
    await mkdir(taskDir, { mode: 0o711 });
    const spec = languageSpec(task.language);
    const checker = resolveChecker(task.checker);
    const tool = await availability(spec.id);
    if (!tool.available)
      return finish('SE', [], { message: `${spec.id}: ${tool.reason ?? 'toolchain not installed on this host'}` });
    const source = spec.prepareSource ? spec.prepareSource(task.source) : task.source;
    const compiled = await compile(spec, source, tool.toolDirs, taskDir);
    emit(onProgress, {
      type: 'compiled',
      ok: compiled.ok,
      cached: compiled.cached,
      ...(compiled.ok ? {} : { compileOutput: compiled.output }),
    });
    if (!compiled.ok) {
      return compiled.verdict === 'CE'
        ? finish('CE', [], { compileOutput: compiled.output })
        : finish('SE', [], { message: compiled.output });
    }
    let checkerProgram: Program | undefined;
    if (checker.kind === 'custom') {
      const cspec = languageSpec(checker.language);
      const ctool = await availability(cspec.id);
      if (!ctool.available)
        return finish('SE', [], { message: `checker ${cspec.id}: ${ctool.reason ?? 'not installed'}` });
      const cc = await compile(cspec, checker.source, ctool.toolDirs, join(taskDir));
      if (!cc.ok) return finish('SE', [], { message: `checker does not compile: ${cc.output}` });
      checkerProgram = cc.program;
    }
    const ctx: Ctx = { task, program: compiled.program, checker, checkerProgram, taskDir };
    const results: (JudgeCaseResult | undefined)[] = new Array<JudgeCaseResult | undefined>(total);
    let emitted = 0;
    let firstFailure = Infinity;
    let next = 0;
    // Results are announced in case order, so a listener sees a stable prefix even though cases finish out of order.
    const flush = (): void => {
      while (emitted < total && emitted <= firstFailure && results[emitted]) {
        emit(onProgress, { type: 'case', result: results[emitted]!, done: emitted + 1, total });
        emitted++;
      }
    };
    const worker = async (): Promise<void> => {
      const runner = caseRunner(ctx);
      try {
        while (next < total) {
          const i = next++;
          if (task.stopOnFailure && i > firstFailure) return;
          let r: JudgeCaseResult;
          try {
            r = await judgeCase(ctx, i, runner.run);
          } catch (err) {
            r = { index: i + 1, verdict: 'SE', time_ms: 0, memory_kb: 0, message: (err as Error).message };
          }
          results[i] = r;
          if (r.verdict !== 'AC' && task.stopOnFailure) firstFailure = Math.min(firstFailure, i);
          flush();
        }
      } finally {
        await runner.close();
      }
    };
    await Promise.all(Array.from({ length: Math.min(BOXES.size, Math.max(total, 1)) }, worker));
    const done = results
      .slice(0, task.stopOnFailure ? Math.min(total, firstFailure + 1) : total)
      .filter((r): r is JudgeCaseResult => !!r);
    const bad = done.find((r) => r.verdict !== 'AC');
    return finish(bad ? bad.verdict : 'AC', done);
  } catch (err) {
    return finish('SE', [], { message: (err as Error).message });
  } finally {
    // fs.rm does not follow symlinks, and only host-written files live here anyway.
    await rm(taskDir, { recursive: true, force: true }).catch(() => undefined);
  }
}

/** Reads a host-owned file without following a symlink (used by the CLI for test files). */
export async function readNoFollow(path: string): Promise<string> {
  const fh = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    return await fh.readFile('utf8');
  } finally {
    await fh.close();
  }
}
