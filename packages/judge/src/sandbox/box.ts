import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import type { Readable } from 'node:stream';
import { createBoxCgroup } from './cgroup.js';
import type { BoxCgroup } from './cgroup.js';
import { boxRunner } from './runner.js';
import {
  BASE_ENV,
  BOX_ISOLATION,
  boxFilesystem,
  BWRAP,
  collect,
  failure,
  ready,
  STATE_DIR,
  UID_BASE,
} from './sandbox.js';
import type { BoxFile, RunResult } from './sandbox.js';
import { acquireSlot } from './slots.js';
import type { Slot } from './slots.js';

/** What stays the same for every case of a persistent box: the program, its files and limits. */
export interface BoxSpec {
  /** Command inside the box; argv[0] is an absolute path. */
  argv: string[];
  env?: Record<string, string>;
  /** Read-only files, bound afresh into each case's /box. */
  files?: BoxFile[];
  toolDirs?: string[];
  /** Memory limit of each case. */
  memoryMb: number;
  /** Processes and threads of the box. */
  processes?: number;
  /** Largest file the box may write. */
  fileBytes?: number;
  /** Size of each case's writable /box, /tmp and /dev/shm. */
  boxMb?: number;
}

/** One case run in a persistent box. */
export interface CaseSpec {
  stdin?: string | Buffer;
  cpuMs: number;
  /** Wall time limit; 3x CPU plus a second by default. */
  wallMs?: number;
  outputBytes: number;
  stderrBytes?: number;
}

/** A case result; `retry` says the box failed (not the program), so the case should run in a fresh box. */
export type CaseResult = RunResult & { retry?: boolean };

/** Slack of the box's memory cgroup for bubblewrap's monitor and the runner, on top of the case's limit. */
const SLACK = 16 * 1024 * 1024;

/**
 * A persistent box: one bubblewrap instance (user, pid, network, ipc, uts and cgroup namespaces,
 * system binds) and one cgroup for many cases of the same task. The in-box runner (runner.ts)
 * gives every case a fresh mount and IPC namespace, fresh tmpfs /box, /tmp and /dev/shm, no
 * capabilities, and kills every process of the box when the case ends; the cgroup's counters are
 * reset and read per case. Cases run one at a time.
 */
export class Box {
  private child?: ChildProcess;
  private slot?: Slot;
  private cgroup?: BoxCgroup;
  private frames: Buffer[] = [];
  private buffered = 0;
  private pending?: (frame: { type: number; data: Buffer } | undefined) => void;
  private queue: { type: number; data: Buffer }[] = [];
  private ended = false;
  private stderr?: () => Buffer;
  private status?: () => Buffer;
  /** False once the box has died or been closed: open a new one. */
  usable = false;

  private constructor(private readonly spec: BoxSpec) {}

  /** Starts a box, or returns undefined when this host cannot run persistent boxes (no cgroup v1). */
  static async open(spec: BoxSpec): Promise<Box | undefined> {
    const env = await ready();
    if (env.cgroup.mode !== 'v1') return undefined;
    const box = new Box(spec);
    try {
      await box.start(env.helper, env.etc, env.cgroup);
    } catch (err) {
      await box.close();
      throw err;
    }
    return box;
  }

  private async start(helper: string, etc: string, support: Awaited<ReturnType<typeof ready>>['cgroup']) {
    const spec = this.spec;
    const runner = await boxRunner(STATE_DIR);
    this.slot = await acquireSlot(STATE_DIR, UID_BASE);
    const processes = spec.processes ?? 64;
    const memoryBytes = spec.memoryMb * 1024 * 1024;
    this.cgroup = await createBoxCgroup(support, `box-${this.slot.index}`, memoryBytes + SLACK, processes + 4);
    if (!this.cgroup?.cases) throw new Error('no per-case cgroup measurement on this host');
    const boxBytes = (spec.boxMb ?? 64) * 1024 * 1024;
    const helperArgs = [
      ...this.cgroup.procsFiles.map((f) => `cg=${f}`),
      `uid=${this.slot.uid}`,
      `gid=${this.slot.gid}`,
      // The runner lives as long as the task; each case gets its own RLIMIT_CPU from the runner.
      `cpu=86400`,
      `fsize=${spec.fileBytes ?? 64 * 1024 * 1024}`,
      `nofile=64`,
      `keep=3`,
      `nproc=${processes + 4}`,
      `stack=${Math.min(memoryBytes, 1024 * 1024 * 1024)}`,
    ];
    const files = spec.files ?? [];
    const bwrapArgs = [
      BWRAP,
      ...BOX_ISOLATION,
      // The runner is the box's pid 1 and keeps these two capabilities of the box's own user
      // namespace to build each case's mounts; it drops every capability before the program runs.
      '--as-pid-1',
      '--cap-add',
      'CAP_SYS_ADMIN',
      '--cap-add',
      'CAP_SETPCAP',
      ...boxFilesystem(etc, boxBytes),
      '--ro-bind',
      runner,
      '/.judge/run',
    ];
    for (const dir of spec.toolDirs ?? []) bwrapArgs.push('--ro-bind', dir, dir);
    files.forEach((f, i) => bwrapArgs.push('--ro-bind', f.host, `/.judge/${i}`));
    bwrapArgs.push('--remount-ro', '/', '--chdir', '/box', '--clearenv');
    for (const [k, v] of Object.entries({ ...BASE_ENV, ...spec.env })) bwrapArgs.push('--setenv', k, v);
    bwrapArgs.push('--', '/.judge/run', String(boxBytes), String(files.length));
    files.forEach((f, i) => bwrapArgs.push(`/.judge/${i}`, f.box));
    bwrapArgs.push('--', ...spec.argv);

    const child = spawn(helper, [...helperArgs, '--', ...bwrapArgs], {
      stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
      detached: true,
      env: {},
    });
    this.child = child;
    this.usable = true;
    child.stdin!.on('error', () => undefined);
    this.stderr = collect(child.stderr!, 16 * 1024, () => undefined);
    this.status = collect(child.stdio[3] as Readable, 4096, () => undefined);
    child.stdout!.on('data', (chunk: Buffer) => this.onData(chunk));
    const end = (): void => {
      this.usable = false;
      this.ended = true;
      this.deliver(undefined);
    };
    child.stdout!.on('end', end);
    child.stdout!.on('error', end);
    child.on('error', end);
  }

  private onData(chunk: Buffer): void {
    this.frames.push(chunk);
    this.buffered += chunk.length;
    for (;;) {
      if (this.buffered < 5) return;
      let head = this.frames[0]!;
      if (head.length < 5) {
        head = Buffer.concat(this.frames);
        this.frames = [head];
      }
      const len = head.readUInt32LE(1);
      if (this.buffered < 5 + len) return;
      const all = this.frames.length === 1 ? head : Buffer.concat(this.frames);
      const type = all[0]!;
      const data = all.subarray(5, 5 + len);
      const rest = all.subarray(5 + len);
      this.frames = rest.length ? [rest] : [];
      this.buffered = rest.length;
      this.deliver({ type, data });
    }
  }

  private deliver(frame: { type: number; data: Buffer } | undefined): void {
    if (frame) this.queue.push(frame);
    const wake = this.pending;
    if (wake && (this.queue.length || this.ended)) {
      this.pending = undefined;
      wake(this.queue.shift());
    }
  }

  private next(): Promise<{ type: number; data: Buffer } | undefined> {
    if (this.queue.length) return Promise.resolve(this.queue.shift());
    if (this.ended) return Promise.resolve(undefined);
    return new Promise((resolve) => (this.pending = resolve));
  }

  private kill(): void {
    this.usable = false;
    try {
      if (this.child?.pid) process.kill(-this.child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }

  /** Runs one case; never throws for the program's faults. */
  async run(c: CaseSpec): Promise<CaseResult> {
    const started = performance.now();
    if (!this.usable || !this.child || !this.cgroup?.cases) return { ...failure('box closed', started), retry: true };
    const meter = this.cgroup.cases;
    const input = typeof c.stdin === 'string' ? Buffer.from(c.stdin) : (c.stdin ?? Buffer.alloc(0));
    const stderrCap = c.stderrBytes ?? 64 * 1024;
    const wallMs = c.wallMs ?? c.cpuMs * 3 + 1000;
    try {
      // The case's standard input lives in a memfd of the box: allow for it on top of the limit.
      meter.beginCase(this.spec.memoryMb * 1024 * 1024 + SLACK + input.length);
    } catch (err) {
      this.kill();
      return { ...failure(`box cgroup: ${(err as Error).message}`, started), retry: true };
    }
    const header = Buffer.from(`${c.cpuMs} ${wallMs} ${c.outputBytes} ${stderrCap} ${input.length}\n`);
    // One write per case: header and input together.
    this.child.stdin!.write(input.length < 65536 ? Buffer.concat([header, input]) : header);
    if (input.length >= 65536) this.child.stdin!.write(input);
    // The runner enforces the wall time; this only catches a runner that stopped answering.
    let backstop = false;
    const timer = setTimeout(() => {
      backstop = true;
      this.kill();
    }, wallMs + 2000);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let outSize = 0;
    let done: string | undefined;
    for (;;) {
      const frame = await this.next();
      if (!frame) break;
      if (frame.type === 0x4f /* O */) {
        out.push(frame.data);
        outSize += frame.data.length;
      } else if (frame.type === 0x45 /* E */) err.push(frame.data);
      else {
        done = frame.data.toString('utf8');
        break;
      }
    }
    clearTimeout(timer);
    const wall = performance.now() - started;
    let usage: ReturnType<typeof meter.caseUsage> | undefined;
    try {
      usage = meter.caseUsage();
    } catch {
      usage = undefined;
    }
    const stdout = Buffer.concat(out, outSize);
    const result: CaseResult = {
      outcome: 'exited',
      exitCode: null,
      signal: null,
      cpuMs: Math.round((usage?.cpuUs ?? wall * 1000) / 1000),
      wallMs: Math.round(wall),
      // The input's memfd is charged to the box, not to the program.
      memoryKb: Math.max(0, Math.round(((usage?.peakBytes ?? 0) - input.length) / 1024)),
      stdout: stdout.length > c.outputBytes ? stdout.subarray(0, c.outputBytes) : stdout,
      stderr: Buffer.concat(err),
    };
    if (!done) {
      this.kill();
      if (usage?.oomKilled) return { ...result, outcome: 'memory' };
      if (backstop) return { ...result, outcome: 'wall' };
      const why = `${this.stderr?.().toString('utf8') ?? ''}${this.status?.().toString('utf8') ?? ''}`.trim();
      return { ...result, outcome: 'error', error: `the box ended: ${why.slice(0, 300)}`, retry: true };
    }
    const [outcome, exited, code, signal] = done.split(' ');
    if (outcome === 'error') {
      this.kill();
      return { ...result, outcome: 'error', error: done.split(' ').slice(5).join(' '), retry: true };
    }
    const cpuMs = usage ? usage.cpuUs / 1000 : wall;
    const sig = Number(signal);
    result.exitCode = exited === '1' ? Number(code) : null;
    result.signal = sig || null;
    if (outcome === 'output') return { ...result, outcome: 'output' };
    if (usage?.oomKilled || result.memoryKb > this.spec.memoryMb * 1024) return { ...result, outcome: 'memory' };
    if (cpuMs > c.cpuMs || sig === 24 /* SIGXCPU */) return { ...result, outcome: 'cpu' };
    if (outcome === 'wall') return { ...result, outcome: 'wall' };
    if (sig) return { ...result, outcome: 'signaled' };
    return result;
  }

  /** Ends the box: its processes, cgroup and slot. */
  async close(): Promise<void> {
    const child = this.child;
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
      child.stdin?.end();
      // The runner exits at the end of its input; a stuck box is killed.
      const timer = setTimeout(() => this.kill(), 1000);
      await exited;
      clearTimeout(timer);
    }
    this.usable = false;
    await this.cgroup?.destroy().catch(() => undefined);
    this.cgroup = undefined;
    await this.slot?.release();
    this.slot = undefined;
  }
}
