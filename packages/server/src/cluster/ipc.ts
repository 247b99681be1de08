/**
 * What Redis gives a cluster, given to the embedded default's processes by their supervisor instead: the shared
 * rate limiter (counters, leases, paced turns) and the proctoring notifier. Each API or worker process talks to the
 * supervisor over the IPC channel node gives a forked child; the supervisor keeps the one MemoryRateLimiter and
 * passes each announced change to every other process (cluster/hub.ts). The same interfaces as the Redis parts
 * (ratelimit/limiter.ts, proctoring/notifier.ts), so services cannot tell which one they have.
 */
import { randomUUID } from 'node:crypto';
import { InProcessNotifier, type ProctorChange, type ProctorNotifier } from '../proctoring/notifier.js';
import type { HitResult, Lease, LeaseKey, RateLimiter } from '../ratelimit/limiter.js';

/** The limiter's calls as they travel to the supervisor. */
export type LimiterCall =
  | { op: 'hit'; key: string; limit: number; windowMs: number }
  | { op: 'count'; key: string }
  | { op: 'reset'; key: string }
  | { op: 'lease'; keys: LeaseKey[]; ttlMs: number; lease: string }
  | { op: 'renew'; lease: string }
  | { op: 'release'; lease: string }
  | { op: 'turn'; queue: string; member: string; intervalMs: number; ttlMs: number; now: number; latest?: number };

/** A message between a process and its supervisor. */
export type IpcMessage =
  | { t: 'limiter'; id: string; call: LimiterCall }
  | { t: 'limiter:done'; id: string; ok: true; value: unknown }
  | { t: 'limiter:done'; id: string; ok: false; error: string }
  | { t: 'notify'; change: ProctorChange }
  /** A process's state, for the supervisor: listening at `address`, or done preparing the database. */
  | { t: 'state'; state: 'listening'; address: string }
  | { t: 'state'; state: 'prepared'; seeded: boolean };

/** One end of the channel: what a forked child has as `process.send` and `process.on('message')`. */
export interface IpcChannel {
  send(message: IpcMessage): void;
  onMessage(fn: (message: IpcMessage) => void): () => void;
}

/** True for a message of this protocol (node's channel also carries the cluster module's own). */
export function isIpcMessage(m: unknown): m is IpcMessage {
  return m !== null && typeof m === 'object' && 't' in m;
}

/** The channel of this process to its supervisor, when it was forked with one. */
export function parentChannel(): IpcChannel | undefined {
  if (!process.send) return undefined;
  return {
    send: (message) => {
      // A supervisor that is gone takes its children with it; until then a failed send is the caller's timeout.
      if (process.connected) process.send!(message);
    },
    onMessage: (fn) => {
      const listener = (m: unknown) => {
        if (isIpcMessage(m)) fn(m);
      };
      process.on('message', listener);
      return () => void process.off('message', listener);
    },
  };
}

/** How long a limiter call waits for the supervisor before failing. */
const CALL_TIMEOUT_MS = 5_000;

/** The rate limiter of a process whose supervisor keeps the counters for every process. */
export class IpcRateLimiter implements RateLimiter {
  private readonly waiting = new Map<
    string,
    { resolve: (v: unknown) => void; reject: (e: Error) => void; timer: NodeJS.Timeout }
  >();
  private readonly stop: () => void;

  constructor(private readonly channel: IpcChannel) {
    this.stop = channel.onMessage((m) => {
      if (m.t !== 'limiter:done') return;
      const w = this.waiting.get(m.id);
      if (!w) return;
      this.waiting.delete(m.id);
      clearTimeout(w.timer);
      if (m.ok) w.resolve(m.value);
      else w.reject(new Error(`rate limiter: ${m.error}`));
    });
  }

  private call<T>(call: LimiterCall): Promise<T> {
    const id = randomUUID();
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        reject(new Error(`rate limiter: no answer from the supervisor within ${CALL_TIMEOUT_MS} ms`));
      }, CALL_TIMEOUT_MS);
      timer.unref();
      this.waiting.set(id, { resolve: resolve as (v: unknown) => void, reject, timer });
      this.channel.send({ t: 'limiter', id, call });
    });
  }

  hit(key: string, limit: number, windowMs: number): Promise<HitResult> {
    return this.call({ op: 'hit', key, limit, windowMs });
  }

  count(key: string): Promise<number> {
    return this.call({ op: 'count', key });
  }

  reset(key: string): Promise<void> {
    return this.call({ op: 'reset', key });
  }

  async lease(keys: readonly LeaseKey[], ttlMs: number): Promise<Lease | null> {
    const lease = randomUUID();
    const taken = await this.call<boolean>({ op: 'lease', keys: [...keys], ttlMs, lease });
    if (!taken) return null;
    let released = false;
    return {
      renew: () => (released ? Promise.resolve() : this.call<void>({ op: 'renew', lease })),
      release: async () => {
        if (released) return;
        released = true;
        await this.call<void>({ op: 'release', lease });
      },
    };
  }

  turn(queue: string, member: string, intervalMs: number, ttlMs: number, now: number, latest?: number) {
    // JSON has no Infinity: no latest travels as none.
    const bound = latest !== undefined && Number.isFinite(latest) ? { latest } : {};
    return this.call<number>({ op: 'turn', queue, member, intervalMs, ttlMs, now, ...bound });
  }

  async close(): Promise<void> {
    this.stop();
    for (const w of this.waiting.values()) {
      clearTimeout(w.timer);
      w.reject(new Error('rate limiter closed'));
    }
    this.waiting.clear();
  }
}

/**
 * The notifier of a process whose supervisor passes changes between processes: a change is heard here at once
 * and by every other process once the supervisor has passed it on.
 */
export class IpcNotifier implements ProctorNotifier {
  private readonly local = new InProcessNotifier();
  private readonly stop: () => void;

  constructor(private readonly channel: IpcChannel) {
    this.stop = channel.onMessage((m) => {
      if (m.t === 'notify') this.local.announce(m.change);
    });
  }

  announce(change: ProctorChange): void {
    this.local.announce(change);
    this.channel.send({ t: 'notify', change });
  }

  listen(fn: (change: ProctorChange) => void, attemptId?: number): () => void {
    return this.local.listen(fn, attemptId);
  }

  async close(): Promise<void> {
    this.stop();
    await this.local.close();
  }
}
