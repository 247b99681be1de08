import { spawn } from 'node:child_process';
import { existsSync, lstatSync } from 'node:fs';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { cgroupSupport, createBoxCgroup } from './cgroup.js';
import type { BoxCgroup, CgroupSupport } from './cgroup.js';
import { boxHelper } from './helper.js';
import { acquireSlot } from './slots.js';

/** Where the judge keeps host-owned state: launcher, slot locks, artifact cache, task dirs. */
export const STATE_DIR = process.env.EXAMHALL_JUDGE_DIR ?? '/var/tmp/examhall-judge';
/** First host uid of the box pool; box N runs as UID_BASE + N. */
export const UID_BASE = Number(process.env.EXAMHALL_JUDGE_UID_BASE ?? 60000);
/** The bubblewrap binary. */
export const BWRAP = process.env.EXAMHALL_JUDGE_BWRAP ?? '/usr/bin/bwrap';

/** The uid and gid a program sees inside its box (mapped to the slot's host uid). */
export const BOX_UID = 1000;

/** The file system every box sees: the system read-only, its own /proc and /dev, size-limited /tmp and /box. */
export function boxFilesystem(etc: string, boxBytes: number): string[] {
  return [
    ...systemBinds(etc),
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    '--size',
    String(boxBytes),
    '--tmpfs',
    '/tmp',
    '--size',
    String(boxBytes),
    '--tmpfs',
    '/box',
  ];
}

/** The namespaces and process settings every box starts with, fresh or persistent: one list, so the two cannot drift. */
export const BOX_ISOLATION = [
  '--unshare-all',
  '--unshare-user',
  '--uid',
  String(BOX_UID),
  '--gid',
  String(BOX_UID),
  '--hostname',
  'box',
  '--die-with-parent',
  '--new-session',
] as const;

/** A host file shown read-only inside the box. The host path must be host-owned. */
export interface BoxFile {
  host: string;
  /** Absolute path inside the box, usually under /box. */
  box: string;
}

/** One sandboxed run. */
export interface RunSpec {
  /** Command inside the box; argv[0] is an absolute path. */
  argv: string[];
  /** Extra environment on top of the fixed one. */
  env?: Record<string, string>;
  /** Read-only files. */
  files?: BoxFile[];
  /** Host directories of a toolchain installed outside /usr (e.g. /opt/julia-1.11), bound read-only at the same path. */
  toolDirs?: string[];
  /** Standard input. */
  stdin?: string | Buffer;
  /** CPU time limit. */
  cpuMs: number;
  /** Wall time limit; 3x CPU plus a second by default. */
  wallMs?: number;
  /** Memory limit. */
  memoryMb: number;
  /** Standard output cap; more is OLE. */
  outputBytes: number;
  /** Standard error cap (the rest is dropped, not an error). */
  stderrBytes?: number;
  /** Processes and threads of the box. */
  processes?: number;
  /** Largest file the box may write. */
  fileBytes?: number;
  /** Size of the writable /box and /tmp each. */
  boxMb?: number;
  /** When set, fd 4 inside the box is a pipe to the host, capped at this many bytes. */
  artifactBytes?: number;
  /** Address-space limit for hosts without a memory cgroup (skip for JITs that reserve a lot). */
  addressSpaceLimit?: boolean;
}

/** How a run ended. */
export type RunOutcome = 'exited' | 'signaled' | 'cpu' | 'wall' | 'memory' | 'output' | 'error';

/** What a run produced and used. */
export interface RunResult {
  outcome: RunOutcome;
  exitCode: number | null;
  signal: number | null;
  cpuMs: number;
  wallMs: number;
  memoryKb: number;
  stdout: Buffer;
  stderr: Buffer;
  artifact?: Buffer;
  /** Set when the artifact pipe passed its cap. */
  artifactTooLarge?: boolean;
  /** Sandbox failure (outcome error). */
  error?: string;
}

/** What the sandbox can do on this host. */
export interface SandboxInfo {
  ready: boolean;
  reason?: string;
  cgroup: CgroupSupport;
  bwrap: string;
}

const ETC_FILES = [
  '/etc/alternatives',
  '/etc/ld.so.cache',
  '/etc/ld.so.conf',
  '/etc/ld.so.conf.d',
  '/etc/localtime',
  '/etc/java-17-openjdk',
  '/etc/mono',
  '/etc/php',
  '/etc/perl',
  '/etc/fpc.cfg',
  '/etc/fpc-3.2.2.cfg',
  '/etc/ssl/certs',
];

export const BASE_ENV: Record<string, string> = {
  PATH: '/usr/local/bin:/usr/bin:/bin',
  HOME: '/box',
  TMPDIR: '/tmp',
  LANG: 'C.UTF-8',
  LC_ALL: 'C.UTF-8',
  USER: 'box',
  LOGNAME: 'box',
};

let prepared: Promise<{ helper: string; etc: string; cgroup: CgroupSupport }> | undefined;

async function prepare(): Promise<{ helper: string; etc: string; cgroup: CgroupSupport }> {
  if (process.getuid?.() !== 0) throw new Error('the judge must run as root to give each box its own uid');
  if (!existsSync(BWRAP)) throw new Error(`bubblewrap not found at ${BWRAP} (apt-get install bubblewrap)`);
  await mkdir(STATE_DIR, { recursive: true, mode: 0o711 });
  await chmod(STATE_DIR, 0o711);
  const etc = join(STATE_DIR, 'etc');
  await mkdir(etc, { recursive: true, mode: 0o755 });
  // Programs that look up their own user (Java, Python's getpass) find one; the host's users do not show.
  await writeFile(
    join(etc, 'passwd'),
    `root:x:0:0:root:/root:/bin/false\nbox:x:${BOX_UID}:${BOX_UID}:box:/box:/bin/false\n`,
    {
      mode: 0o644,
    },
  );
  await writeFile(join(etc, 'group'), `root:x:0:\nbox:x:${BOX_UID}:\n`, { mode: 0o644 });
  await writeFile(join(etc, 'hosts'), '127.0.0.1 localhost box\n', { mode: 0o644 });
  const [helper, cgroup] = await Promise.all([boxHelper(STATE_DIR), cgroupSupport()]);
  return { helper, etc, cgroup };
}

export function ready(): Promise<{ helper: string; etc: string; cgroup: CgroupSupport }> {
  prepared ??= prepare().catch((err: unknown) => {
    prepared = undefined;
    throw err;
  });
  return prepared;
}

/** Checks that boxes can be started here and says which cgroup interface is used. */
export async function sandboxInfo(): Promise<SandboxInfo> {
  try {
    const { cgroup } = await ready();
    return { ready: true, cgroup, bwrap: BWRAP };
  } catch (err) {
    return { ready: false, reason: (err as Error).message, cgroup: await cgroupSupport(), bwrap: BWRAP };
  }
}

export function systemBinds(etc: string): string[] {
  const args: string[] = ['--ro-bind', '/usr', '/usr'];
  for (const dir of ['/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32']) {
    if (!existsSync(dir)) continue;
    // Merged-/usr hosts have these as symlinks; recreate the link instead of binding its target twice.
    const s = lstatSync(dir);
    if (s.isSymbolicLink()) args.push('--symlink', `usr${dir}`, dir);
    else args.push('--ro-bind', dir, dir);
  }
  for (const path of ETC_FILES) args.push('--ro-bind-try', path, path);
  args.push('--ro-bind', join(etc, 'passwd'), '/etc/passwd');
  args.push('--ro-bind', join(etc, 'group'), '/etc/group');
  args.push('--ro-bind', join(etc, 'hosts'), '/etc/hosts');
  // GHC keeps its package database here.
  args.push('--ro-bind-try', '/var/lib/ghc', '/var/lib/ghc');
  const nodePrefix = dirname(dirname(process.execPath));
  if (!process.execPath.startsWith('/usr/')) args.push('--ro-bind', nodePrefix, nodePrefix);
  return args;
}

export function collect(stream: Readable, cap: number, onOverflow: () => void): () => Buffer {
  const chunks: Buffer[] = [];
  let size = 0;
  let over = false;
  stream.on('data', (chunk: Buffer) => {
    if (over) return;
    if (size + chunk.length > cap) {
      chunks.push(chunk.subarray(0, cap - size));
      size = cap;
      over = true;
      onOverflow();
      return;
    }
    chunks.push(chunk);
    size += chunk.length;
  });
  stream.on('error', () => undefined);
  return () => Buffer.concat(chunks, size);
}

interface HelperReport {
  exited?: number;
  code?: number;
  signal?: number;
  cpu_us?: number;
  maxrss_kb?: number;
  error?: string;
}

/** Runs one command in a fresh box and reports how it ended; never throws for the program's faults. */
export async function runInSandbox(spec: RunSpec): Promise<RunResult> {
  const started = performance.now();
  let env: Awaited<ReturnType<typeof ready>>;
  try {
    env = await ready();
  } catch (err) {
    return failure((err as Error).message, started);
  }
  const slot = await acquireSlot(STATE_DIR, UID_BASE);
  let cgroup: BoxCgroup | undefined;
  try {
    const processes = spec.processes ?? 64;
    const memoryBytes = spec.memoryMb * 1024 * 1024;
    // Slack for bubblewrap's own two processes, so the program gets the whole limit.
    cgroup = await createBoxCgroup(env.cgroup, `box-${slot.index}`, memoryBytes + 16 * 1024 * 1024, processes + 4);
    const boxBytes = (spec.boxMb ?? 64) * 1024 * 1024;
    const cpuSeconds = Math.ceil(spec.cpuMs / 1000) + 1;
    const helperArgs = [
      ...(cgroup?.procsFiles.map((f) => `cg=${f}`) ?? []),
      `uid=${slot.uid}`,
      `gid=${slot.gid}`,
      `cpu=${cpuSeconds}`,
      `fsize=${spec.fileBytes ?? 64 * 1024 * 1024}`,
      `nofile=64`,
      `keep=${spec.artifactBytes ? 4 : 3}`,
      `nproc=${processes + 4}`,
      `stack=${Math.min(memoryBytes, 1024 * 1024 * 1024)}`,
    ];
    if (!cgroup && spec.addressSpaceLimit !== false) helperArgs.push(`as=${memoryBytes * 2}`);
    const bwrapArgs = [BWRAP, ...BOX_ISOLATION, '--cap-drop', 'ALL', ...boxFilesystem(env.etc, boxBytes)];
    for (const dir of spec.toolDirs ?? []) bwrapArgs.push('--ro-bind', dir, dir);
    for (const f of spec.files ?? []) bwrapArgs.push('--ro-bind', f.host, f.box);
    bwrapArgs.push('--remount-ro', '/', '--chdir', '/box', '--clearenv');
    for (const [k, v] of Object.entries({ ...BASE_ENV, ...spec.env })) bwrapArgs.push('--setenv', k, v);
    bwrapArgs.push('--', ...spec.argv);

    const stdio: ('pipe' | 'ignore')[] = ['pipe', 'pipe', 'pipe', 'pipe'];
    if (spec.artifactBytes) stdio.push('pipe');
    const child = spawn(env.helper, [...helperArgs, '--', ...bwrapArgs], { stdio, detached: true, env: {} });
    let outcome: RunOutcome | undefined;
    const kill = (why: RunOutcome): void => {
      outcome ??= why;
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    const wallMs = spec.wallMs ?? spec.cpuMs * 3 + 1000;
    const timer = setTimeout(() => kill('wall'), wallMs);
    const stdout = collect(child.stdout!, spec.outputBytes, () => kill('output'));
    const stderr = collect(child.stderr!, spec.stderrBytes ?? 64 * 1024, () => undefined);
    const status = collect(child.stdio[3] as Readable, 4096, () => undefined);
    let artifactOver = false;
    const artifact = spec.artifactBytes
      ? collect(child.stdio[4] as Readable, spec.artifactBytes, () => {
          artifactOver = true;
          kill('output');
        })
      : undefined;
    const stdin = child.stdin as Writable;
    stdin.on('error', () => undefined);
    stdin.end(spec.stdin ?? '');
    await new Promise<void>((resolve) => {
      child.on('close', () => resolve());
      child.on('error', () => resolve());
    });
    clearTimeout(timer);
    const wall = performance.now() - started;
    let report: HelperReport = {};
    const statusText = status().toString('utf8').trim();
    if (statusText) {
      try {
        report = JSON.parse(statusText.split('\n').pop() ?? '{}') as HelperReport;
      } catch {
        report = { error: `bad launcher report: ${statusText.slice(0, 200)}` };
      }
    }
    const usage = cgroup ? await cgroup.usage() : undefined;
    // Without a cgroup only bubblewrap's own rusage is visible, so wall time stands in for CPU time.
    const cpuMs = usage ? usage.cpuUs / 1000 : wall;
    const memoryKb = usage?.peakBytes ? Math.round(usage.peakBytes / 1024) : (report.maxrss_kb ?? 0);
    const result: RunResult = {
      outcome: 'exited',
      exitCode: report.exited ? (report.code ?? null) : null,
      signal: report.signal ? report.signal : null,
      cpuMs: Math.round(cpuMs),
      wallMs: Math.round(wall),
      memoryKb,
      stdout: stdout(),
      stderr: stderr(),
      ...(artifact ? { artifact: artifact(), artifactTooLarge: artifactOver } : {}),
    };
    if (report.error && !outcome) return { ...result, outcome: 'error', error: report.error };
    if (outcome === 'output') return { ...result, outcome: 'output' };
    if (usage?.oomKilled || memoryKb > spec.memoryMb * 1024) return { ...result, outcome: 'memory' };
    if (cpuMs > spec.cpuMs || report.signal === 24 /* SIGXCPU */) return { ...result, outcome: 'cpu' };
    if (outcome === 'wall') return { ...result, outcome: 'wall' };
    if (!statusText) return { ...result, outcome: 'error', error: 'the launcher ended without a report' };
    // bubblewrap exits with 128+N when the program dies of signal N.
    if (report.signal || (report.code ?? 0) > 128) {
      const sig = report.signal ? report.signal : (report.code ?? 0) - 128;
      return { ...result, outcome: 'signaled', signal: sig, exitCode: null };
    }
    return result;
  } catch (err) {
    return failure((err as Error).message, started);
  } finally {
    await cgroup?.destroy().catch(() => undefined);
    await slot.release();
  }
}

export function failure(message: string, started: number): RunResult {
  return {
    outcome: 'error',
    exitCode: null,
    signal: null,
    cpuMs: 0,
    wallMs: Math.round(performance.now() - started),
    memoryKb: 0,
    stdout: Buffer.alloc(0),
    stderr: Buffer.alloc(0),
    error: message,
  };
}
