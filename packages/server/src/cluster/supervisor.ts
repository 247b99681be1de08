/**
 * The embedded default's process model, the cluster's roles on one machine: this supervisor starts one worker
 * process (jobs and periodic tasks, and the database's preparation) and then `processes` API processes that
 * serve one port (node's cluster module hands each connection to one of them). It keeps the rate limits and
 * passes proctoring changes between them (cluster/hub.ts), restarts a process that dies, and on SIGTERM or SIGINT
 * stops them all, each draining its requests, before it exits.
 */
import cluster, { type Worker } from 'node:cluster';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Config } from '../config.js';
import { banner } from '../server.js';
import { Hub } from './hub.js';
import { isIpcMessage, type IpcChannel } from './ipc.js';

/** The environment variable that tells a started process its role. */
export const ROLE_ENV = 'EXAMHALL_ROLE';
/** The environment variable that tells a started process its slot (the worker 0, API processes from 1). */
export const SLOT_ENV = 'EXAMHALL_SLOT';

/** How long the worker may take to bring the database up to date before the start is given up. */
const PREPARE_TIMEOUT_MS = 10 * 60_000;
/** A process that dies is started again after this long, doubling while it keeps dying at once, up to a minute. */
const RESTART_DELAY_MS = 250;
const RESTART_DELAY_MAX_MS = 60_000;
/** A process that ran this long before it died counts as healthy: its next restart waits the least again. */
const HEALTHY_AFTER_MS = 30_000;

/** A cluster worker as a channel of the hub. */
function channelOf(worker: Worker): IpcChannel {
  return {
    send: (message) => {
      if (worker.isConnected()) worker.send(message);
    },
    onMessage: (fn) => {
      const listener = (m: unknown) => {
        if (isIpcMessage(m)) fn(m);
      };
      worker.on('message', listener);
      return () => void worker.off('message', listener);
    },
  };
}

/** The file a started process runs: child.ts beside this one (child.js once built). */
function childEntry(): string {
  const here = fileURLToPath(import.meta.url);
  return path.join(path.dirname(here), `child${path.extname(here)}`);
}

type Role = 'api' | 'worker';

/** Runs the supervisor until SIGTERM or SIGINT; the process exits once every child has stopped. */
export async function supervise(config: Config, opts: { seed: boolean; processes: number }): Promise<void> {
  const hub = new Hub();
  const log = (text: string) => process.stderr.write(`[supervisor] ${text}\n`);
  // The API processes share the cores for judging code without Redis, as one process would use them all.
  const judgeConcurrency = Math.max(1, Math.floor(availableParallelism() / opts.processes));
  cluster.setupPrimary({ exec: childEntry(), execArgv: process.execArgv });
  let stopping = false;
  /** True once the worker has prepared the database; before that a failure ends the start. */
  let prepared = false;
  const live = new Set<Worker>();
  // The banner comes once every API process of the start listens, so whoever reads it finds them all serving.
  let listening: ((address: string) => void) | undefined;
  let waitingFor = opts.processes;
  const allListening = new Promise<string>((resolve) => (listening = resolve));

  function start(role: Role, slot: number, onPrepared?: (seeded: boolean) => void, delay = RESTART_DELAY_MS): void {
    const worker = cluster.fork({
      [ROLE_ENV]: role,
      [SLOT_ENV]: String(slot),
      EXAMHALL_SEED: String(opts.seed),
      EXAMHALL_JUDGE_CONCURRENCY: String(judgeConcurrency),
    });
    const started = Date.now();
    live.add(worker);
    const leave = hub.join(channelOf(worker), (m) => {
      if (m.state === 'prepared') onPrepared?.(m.seeded);
      if (m.state === 'listening' && --waitingFor === 0) listening?.(m.address);
    });
    worker.on('exit', (code, signal) => {
      live.delete(worker);
      leave();
      if (stopping) return;
      if (!prepared) {
        // Nothing serves yet: a worker that cannot prepare the database would fail the same way again.
        log(`the worker process ended while preparing the database (${signal ?? `exit ${code}`})`);
        process.exitCode = 1;
        stop('failure');
        return;
      }
      const ranLong = Date.now() - started > HEALTHY_AFTER_MS;
      const next = ranLong ? RESTART_DELAY_MS : Math.min(delay * 2, RESTART_DELAY_MAX_MS);
      log(`${role} process ${slot} (pid ${worker.process.pid}) ended (${signal ?? `exit ${code}`}); starting it again`);
      setTimeout(() => {
        if (!stopping) start(role, slot, undefined, next);
      }, next).unref();
    });
  }

  const stop = (signal: NodeJS.Signals | 'failure') => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: stopping ${live.size} processes`);
    for (const worker of live) worker.process.kill('SIGTERM');
    // A process that does not end within its grace (and some) is ended.
    const deadline = setTimeout(() => {
      for (const worker of live) worker.process.kill('SIGKILL');
    }, config.shutdownGraceMs + 15_000);
    deadline.unref();
    const check = setInterval(() => {
      if (live.size > 0) return;
      clearInterval(check);
      process.exit(signal === 'failure' ? 1 : 0);
    }, 50);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);

  // The worker prepares the database (schema, first admin, demo exam) before any API process opens it.
  const seeded = await new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => {
      log('the worker process did not prepare the database in time');
      stop('failure');
    }, PREPARE_TIMEOUT_MS);
    timer.unref();
    start('worker', 0, (s) => {
      clearTimeout(timer);
      prepared = true;
      resolve(s);
    });
  });
  for (let slot = 1; slot <= opts.processes; slot++) start('api', slot);
  const address = await allListening;
  process.stdout.write(
    `${banner(config, address, config.databaseUrl ? 'postgres' : 'sqlite', seeded, opts.processes)}\n`,
  );
}
