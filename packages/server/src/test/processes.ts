/** Helpers for tests that run parts of the server as processes of their own and kill them. */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
/** tsx's loader: a script runs as one node process with it (tsx's own command would put a second process between). */
export const tsxLoader = pathToFileURL(path.resolve(here, '../../../../node_modules/tsx/dist/loader.mjs')).href;

/** Polls `check` until it answers something (not undefined or false); throws after `timeoutMs`. */
export async function until<T>(
  check: () => Promise<T | undefined | false>,
  timeoutMs = 30_000,
  everyMs = 25,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** The environment of a server on its own: on `port` of 127.0.0.1, SQLite in `dataDir`, no Redis, no web app. */
export function standaloneEnv(port: number, dataDir: string): Record<string, string> {
  return {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    REDIS_URL: '',
    WEB_DIST: '/nonexistent',
  };
}

/**
 * Starts a script of test/ (e.g. 'jobWorker.ts', or '../main.ts' for the server itself) as its own process, with
 * `args`; resolves once its output includes `ready`.
 */
export function startScript(
  script: string,
  env: Record<string, string>,
  ready = 'ready',
  args: readonly string[] = [],
): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', tsxLoader, path.resolve(here, script), ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes(ready)) resolve(child);
    });
    child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    child.once('exit', (code) => reject(new Error(`${script} exited (${code}):\n${out}`)));
  });
}

/**
 * The pids of the API and worker processes a supervisor (cluster/supervisor.ts) started, in the order they were
 * started: its children that run the supervisor's child entry (a loader's helper process is left out).
 */
export function supervisedPids(supervisor: number): number[] {
  let pids: number[];
  try {
    pids = execFileSync('pgrep', ['-P', String(supervisor)], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
  return pids.filter((p) => {
    try {
      return fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').includes('child.');
    } catch {
      return false;
    }
  });
}

/** Ends these processes with SIGKILL (at the end of a test, whatever state it left them in); gone ones are skipped. */
export function killPids(pids: readonly number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}
