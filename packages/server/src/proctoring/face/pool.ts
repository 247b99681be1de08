import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { threadId, Worker } from 'node:worker_threads';
import type { FaceAnalysis } from './engine.js';
import { ImageUnreadableError } from './image.js';
import type { FaceJob, FaceReply } from './worker.js';

/** Every worker and queue slot is taken: the caller should try again shortly. */
export class FaceBusyError extends Error {
  constructor() {
    super('face check queue is full');
    this.name = 'FaceBusyError';
  }
}

/** Pool settings. */
export interface FacePoolOptions {
  /** Worker threads, each with its own engine; default: the machine's cores. */
  size?: number;
  /** Pictures that may wait for a worker before new ones are refused; default: 8 per worker. */
  maxQueue?: number;
}

interface Pending {
  id: number;
  bytes: Uint8Array;
  resolve: (r: FaceAnalysis) => void;
  reject: (e: Error) => void;
}

interface Slot {
  worker: Worker;
  job: Pending | null;
}

const here = dirname(fileURLToPath(import.meta.url));

/**
 * The worker's entry point. Built code runs dist/.../worker.js; tests run the TypeScript sources, which a
 * worker thread cannot load, so this folder is transpiled once into a cache inside node_modules (where the
 * worker still resolves its packages) with the transformer vitest already ships.
 */
async function workerEntry(): Promise<URL> {
  const built = join(here, 'worker.js');
  if (existsSync(built)) return pathToFileURL(built);
  const { transformWithOxc } = await import('vite');
  const out = join(here, '..', '..', '..', 'node_modules', '.cache', 'examhall-face-worker');
  await mkdir(out, { recursive: true });
  const pkg = join(out, 'package.json');
  if (!existsSync(pkg)) await writeFile(pkg, '{"type":"module"}\n');
  for (const f of await readdir(here)) {
    if (!f.endsWith('.ts') || f.endsWith('.test.ts')) continue;
    const src = await readFile(join(here, f), 'utf8');
    const { code } = await transformWithOxc(src, f, { lang: 'ts' });
    // written aside and renamed: another test process may be starting a worker from the same cache
    const target = join(out, f.replace(/\.ts$/, '.js'));
    const tmp = `${target}.${process.pid}.${threadId}.tmp`;
    await writeFile(tmp, code);
    await rename(tmp, target);
  }
  return pathToFileURL(join(out, 'worker.js'));
}

/**
 * Runs face analysis on worker threads so the event loop stays free: one engine per thread, a bounded queue
 * in front. Workers start on first use (loading the models takes a second or two) and are replaced if one dies.
 */
export class FacePool {
  /** Worker threads. */
  readonly size: number;
  /** Most pictures waiting. */
  readonly maxQueue: number;
  private slots: Slot[] = [];
  private readonly queue: Pending[] = [];
  private nextId = 1;
  private starting: Promise<void> | null = null;
  private closed = false;

  constructor(opts: FacePoolOptions = {}) {
    this.size = Math.max(1, opts.size ?? availableParallelism());
    this.maxQueue = Math.max(0, opts.maxQueue ?? this.size * 8);
  }

  /** Starts the workers and waits until every engine has loaded its models. */
  async start(): Promise<void> {
    this.starting ??= (async () => {
      const entry = await workerEntry();
      await Promise.all(Array.from({ length: this.size }, () => this.spawn(entry)));
    })();
    try {
      await this.starting;
    } catch (err) {
      this.starting = null;
      throw err;
    }
  }

  private spawn(entry: URL): Promise<void> {
    return new Promise((resolve, reject) => {
      const worker = new Worker(entry);
      const slot: Slot = { worker, job: null };
      let ready = false;
      worker.on('message', (msg: FaceReply) => {
        if (msg.id === 0) {
          if ('ready' in msg && msg.ready) {
            ready = true;
            this.slots.push(slot);
            resolve();
            this.pump();
          } else {
            reject(new Error(`face worker failed to start: ${'message' in msg ? msg.message : ''}`));
            void worker.terminate();
          }
          return;
        }
        const job = slot.job;
        if (!job || job.id !== msg.id) return;
        slot.job = null;
        if ('result' in msg) job.resolve(msg.result);
        else if ('unreadable' in msg && msg.unreadable) job.reject(new ImageUnreadableError(msg.message));
        else job.reject(new Error('message' in msg ? msg.message : 'face worker error'));
        this.pump();
      });
      const died = (err: Error) => {
        if (!ready) return reject(err);
        this.slots = this.slots.filter((s) => s !== slot);
        slot.job?.reject(err);
        slot.job = null;
        // A crashed engine is replaced so the pool keeps its size.
        if (!this.closed) this.spawn(entry).catch(() => undefined);
      };
      worker.on('error', died);
      worker.on('exit', (code) => {
        if (!this.closed) died(new Error(`face worker exited with code ${code}`));
      });
    });
  }

  /** Hands waiting pictures to idle workers. */
  private pump(): void {
    for (const slot of this.slots) {
      if (slot.job) continue;
      const job = this.queue.shift();
      if (!job) return;
      slot.job = job;
      const msg: FaceJob = { id: job.id, bytes: job.bytes };
      slot.worker.postMessage(msg, [job.bytes.buffer as ArrayBuffer]);
    }
  }

  /** Pictures waiting for a worker. */
  get waiting(): number {
    return this.queue.length;
  }

  /**
   * Decodes and analyses one picture on a worker. Throws ImageUnreadableError for a picture that is not a
   * readable JPEG/PNG and FaceBusyError when the queue is full.
   */
  async analyze(bytes: Uint8Array): Promise<FaceAnalysis> {
    if (this.closed) throw new Error('face pool is closed');
    // in flight = running + waiting; a worker per slot plus maxQueue waiting is the bound
    const running = this.slots.filter((s) => s.job).length;
    if (running + this.queue.length >= this.size + this.maxQueue) throw new FaceBusyError();
    // a private copy: its buffer is transferred to the worker
    const copy = new Uint8Array(bytes);
    let job: Pending | undefined;
    const done = new Promise<FaceAnalysis>((resolve, reject) => {
      job = { id: this.nextId++, bytes: copy, resolve, reject };
      this.queue.push(job);
    });
    try {
      await this.start();
    } catch (err) {
      const i = this.queue.indexOf(job!);
      if (i >= 0) this.queue.splice(i, 1);
      throw err;
    }
    this.pump();
    return done;
  }

  /** Stops the workers; waiting pictures are refused. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new Error('face pool closed'));
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
    this.slots = [];
  }
}
