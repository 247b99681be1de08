import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { threadId, Worker, type WorkerOptions } from 'node:worker_threads';
import { AppError } from '../errors.js';
import type { ParseKind, ParseTasks } from './tasks.js';
import type { ParseReply, ParseRequest } from './worker.js';

/** Every worker and queue slot is taken: the caller should try again shortly. */
export class ParseBusyError extends Error {
  constructor() {
    super('file reading is busy');
    this.name = 'ParseBusyError';
  }
}

/** The worker died while reading (out of its memory, or a crash): the file cannot be read here. */
export class ParseCrashError extends Error {
  constructor(reason: string) {
    super(`the file could not be read: ${reason}`);
    this.name = 'ParseCrashError';
  }
}

/** Pool settings. */
export interface ParsePoolOptions {
  /** Worker threads; default 1 (each API process has its own pool, and previews are rare). */
  size?: number;
  /** Tasks that may wait for a worker before new ones are refused; default 4 per worker. */
  maxQueue?: number;
  /** An idle worker leaves after this long, giving back the memory the last file took; default a minute. */
  idleMs?: number;
  /** Heap of a worker, MB: a file that needs more ends that worker, not the process; default 1024. */
  heapMb?: number;
}

interface Pending {
  id: number;
  kind: ParseKind;
  input: unknown;
  transfer: ArrayBuffer[];
  resolve: (r: unknown) => void;
  reject: (e: Error) => void;
}

interface Slot {
  worker: Worker;
  job: Pending | null;
  idle: NodeJS.Timeout | null;
}

const here = dirname(fileURLToPath(import.meta.url));

/**
 * Starts a worker. Built code runs dist/parsing/worker.js; tests run the TypeScript sources, which a worker thread
 * cannot load by itself, so the thread first registers tsx's loader (vitest's own transform stays in the test's
 * thread) with a tsconfig that maps the workspace packages to their sources, as vitest's aliases do.
 */
function startWorker(opts: WorkerOptions): Worker {
  const built = join(here, 'worker.js');
  if (existsSync(built)) return new Worker(pathToFileURL(built), opts);
  const packages = join(here, '..', '..', '..');
  const root = join(packages, '..');
  const cache = join(packages, 'server', 'node_modules', '.cache', 'examhall-parse-worker');
  const tsconfig = join(cache, 'tsconfig.json');
  const config = JSON.stringify({
    compilerOptions: {
      paths: {
        '@examhall/contract': [join(packages, 'contract', 'src', 'index.ts')],
        '@examhall/importers': [join(packages, 'importers', 'src', 'index.ts')],
      },
    },
  });
  // rewritten when it names other paths: a copied tree carries its cache along
  if (!existsSync(tsconfig) || readFileSync(tsconfig, 'utf8') !== config) {
    mkdirSync(cache, { recursive: true });
    // written aside and renamed: another test process may be starting a worker from the same cache
    const tmp = `${tsconfig}.${process.pid}.${threadId}.tmp`;
    writeFileSync(tmp, config);
    renameSync(tmp, tsconfig);
  }
  const boot = `const { workerData } = require('node:worker_threads');
import(workerData.tsx).then(({ register }) => {
  register({ tsconfig: workerData.tsconfig });
  return import(workerData.entry);
});`;
  return new Worker(boot, {
    ...opts,
    eval: true,
    workerData: {
      tsx: pathToFileURL(join(root, 'node_modules', 'tsx', 'dist', 'esm', 'api', 'index.mjs')).href,
      tsconfig,
      entry: pathToFileURL(join(here, 'worker.ts')).href,
    },
  });
}

/**
 * Reads uploaded files on worker threads, so that a 20,000-question file never holds the event loop that answers
 * candidates: a few threads with a bounded queue in front. Threads start on first use, leave when idle and are
 * replaced when one dies; an idle thread never keeps the process alive.
 */
export class ParsePool {
  /** Worker threads at most. */
  readonly size: number;
  /** Most tasks waiting. */
  readonly maxQueue: number;
  private readonly idleMs: number;
  private readonly heapMb: number;
  private slots: Slot[] = [];
  private readonly queue: Pending[] = [];
  private nextId = 1;
  private closed = false;

  constructor(opts: ParsePoolOptions = {}) {
    this.size = Math.max(1, opts.size ?? 1);
    this.maxQueue = Math.max(0, opts.maxQueue ?? this.size * 4);
    this.idleMs = opts.idleMs ?? 60_000;
    this.heapMb = opts.heapMb ?? 1024;
  }

  /**
   * Runs a task on a worker; `transfer` lists buffers of the input to hand over rather than copy (the caller
   * must not use them after). Throws ParseBusyError when the queue is full, ParseCrashError when the worker dies,
   * and the task's own AppError as it was thrown.
   */
  run<K extends ParseKind>(
    kind: K,
    input: ParseTasks[K]['input'],
    transfer: ArrayBuffer[] = [],
  ): Promise<ParseTasks[K]['output']> {
    if (this.closed) return Promise.reject(new Error('parse pool is closed'));
    const running = this.slots.filter((s) => s.job).length;
    if (running + this.queue.length >= this.size + this.maxQueue) return Promise.reject(new ParseBusyError());
    const done = new Promise<ParseTasks[K]['output']>((resolve, reject) => {
      this.queue.push({ id: this.nextId++, kind, input, transfer, resolve: resolve as (r: unknown) => void, reject });
    });
    this.pump();
    return done;
  }

  /** Tasks waiting for a worker. */
  get waiting(): number {
    return this.queue.length;
  }

  /** Hands waiting tasks to idle workers, starting workers up to the pool's size. */
  private pump(): void {
    while (this.queue.length > 0) {
      let slot = this.slots.find((s) => !s.job);
      if (!slot) {
        if (this.slots.length >= this.size) return;
        slot = this.spawn();
      }
      const job = this.queue.shift()!;
      if (slot.idle) clearTimeout(slot.idle);
      slot.idle = null;
      slot.job = job;
      // held while it works (a command waiting on it must not exit), let go when idle
      slot.worker.ref();
      const msg: ParseRequest = { id: job.id, kind: job.kind, input: job.input as ParseRequest['input'] };
      slot.worker.postMessage(msg, job.transfer);
    }
  }

  private spawn(): Slot {
    const worker = startWorker({ resourceLimits: { maxOldGenerationSizeMb: this.heapMb } });
    const slot: Slot = { worker, job: null, idle: null };
    this.slots.push(slot);
    worker.on('message', (msg: ParseReply) => {
      const job = slot.job;
      if (!job || job.id !== msg.id) return;
      slot.job = null;
      if ('result' in msg) job.resolve(msg.result);
      else if (msg.error.code) job.reject(new AppError(msg.error.code, msg.error.message, msg.error.data ?? null));
      else job.reject(new Error(msg.error.message));
      this.rest(slot);
      this.pump();
    });
    const died = (err: Error) => {
      if (!this.slots.includes(slot)) return;
      this.slots = this.slots.filter((s) => s !== slot);
      if (slot.idle) clearTimeout(slot.idle);
      slot.job?.reject(new ParseCrashError(err.message));
      slot.job = null;
      // the next task starts a fresh worker
      if (!this.closed) this.pump();
    };
    worker.on('error', died);
    worker.on('exit', (code) => died(new Error(`worker exited with code ${code}`)));
    return slot;
  }

  /** An idle worker: it no longer keeps the process alive, and leaves if nothing comes for a while. */
  private rest(slot: Slot): void {
    slot.worker.unref();
    slot.idle = setTimeout(() => {
      if (slot.job) return;
      this.slots = this.slots.filter((s) => s !== slot);
      void slot.worker.terminate();
    }, this.idleMs);
    slot.idle.unref();
  }

  /** Stops the workers; waiting tasks are refused. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new Error('parse pool closed'));
    const slots = this.slots;
    this.slots = [];
    for (const s of slots) {
      if (s.idle) clearTimeout(s.idle);
      s.job?.reject(new Error('parse pool closed'));
    }
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }
}

let shared: ParsePool | null = null;

/** The process's pool, made on first use: no state beyond the threads, which leave when idle. */
export function parsePool(): ParsePool {
  shared ??= new ParsePool();
  return shared;
}
