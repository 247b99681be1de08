/**
 * Readiness: whether this process can serve, part by part (the database, Redis when configured, object
 * storage). Each part answers within its own time limit, so a part that hangs makes the answer "not ready",
 * never a request that hangs with it.
 */
import { Redis } from 'ioredis';
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import type { ObjectStore } from '../storage/objectStore.js';

/** How long one part may take to answer before it counts as down. */
export const PROBE_TIMEOUT_MS = 2_000;

/** One part readiness looks at. */
export interface Probe {
  name: 'database' | 'redis' | 'storage';
  /** Resolves when the part answers; `signal` aborts when its time is up. */
  check(signal: AbortSignal): Promise<void>;
}

/** How one part answered. */
export interface PartStatus {
  ok: boolean;
  /** Milliseconds it took (or the limit, when it did not answer). */
  ms: number;
  /** Why it is down. */
  error?: string;
}

/** The answer of /readyz. */
export interface Readiness {
  ready: boolean;
  parts: Record<string, PartStatus>;
}

class ProbeTimeout extends Error {}

/** Runs `probe` with a time limit. */
async function run(probe: Probe, timeoutMs: number): Promise<PartStatus> {
  const started = performance.now();
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new ProbeTimeout(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
  });
  try {
    await Promise.race([probe.check(controller.signal), late]);
    return { ok: true, ms: Math.round(performance.now() - started) };
  } catch (err) {
    const message = err instanceof Error ? err.message || err.name : String(err);
    return { ok: false, ms: Math.round(performance.now() - started), error: message.slice(0, 200) };
  } finally {
    clearTimeout(timer);
  }
}

/** Asks every part at once. */
export async function readiness(probes: readonly Probe[], timeoutMs = PROBE_TIMEOUT_MS): Promise<Readiness> {
  const answers = await Promise.all(probes.map(async (p) => [p.name, await run(p, timeoutMs)] as const));
  return { ready: answers.every(([, s]) => s.ok), parts: Object.fromEntries(answers) };
}

/** The database answers a trivial query. */
export function databaseProbe(db: Db): Probe {
  return { name: 'database', check: async () => void (await sql`select 1`.execute(db)) };
}

/** Object storage answers (the local folder is writable; the S3 bucket answers HeadBucket). */
export function storageProbe(store: ObjectStore): Probe {
  return { name: 'storage', check: (signal) => store.probe(signal) };
}

/**
 * Redis answers PING, on a connection of its own: commands fail at once while it is disconnected (no offline
 * queue), and it reconnects by itself when Redis is back.
 */
export function redisProbe(url: string): Probe & { close(): Promise<void> } {
  const client = new Redis(url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0 });
  // Connection errors are what the probe reports; unhandled, ioredis would print each one.
  client.on('error', () => undefined);
  return {
    name: 'redis',
    async check() {
      if (client.status === 'wait') await client.connect();
      await client.ping();
    },
    async close() {
      client.disconnect();
    },
  };
}
