import path from 'node:path';
import { BullJudgeQueue, LocalJudgeQueue, type JudgeQueue } from '@examhall/judge';
import { Redis } from 'ioredis';
import type { LogEvent } from 'kysely';
import { IpcNotifier, IpcRateLimiter, type IpcChannel } from './cluster/ipc.js';
import type { Config } from './config.js';
import { migrate, openDb, type DbHandle } from './db/database.js';
import type { WalCheckpoints } from './db/dialects/sqlite.js';
import { InProcessNotifier, RedisNotifier, type ProctorNotifier } from './proctoring/notifier.js';
import { MemoryRateLimiter, RedisRateLimiter, type RateLimiter } from './ratelimit/limiter.js';
import { LocalCredentials } from './storage/localCredentials.js';
import { LOCAL_BUCKET, LOCAL_REGION, localStorageEndpoint } from './storage/gateway.js';
import { LocalObjectStore, type ObjectStore } from './storage/objectStore.js';
import { S3ObjectStore } from './storage/s3ObjectStore.js';

/** The parts a process runs on: the database (migrated), the rate limiter, object storage and the judge queue. */
export interface Runtime {
  handle: DbHandle;
  limiter: RateLimiter;
  store: ObjectStore;
  /** Where code is judged: in this process, or by judge workers through Redis. */
  judgeQueue: JudgeQueue;
  /** Where proctoring changes are announced. */
  notifier: ProctorNotifier;
  /** Closes connections. */
  close(): Promise<void>;
}

/** The configured object store: S3-compatible when S3_* is set, else the local store served at PUBLIC_URL/storage. */
export function openStore(config: Config, handle: DbHandle, clock: () => number = Date.now): ObjectStore {
  if (config.s3) return new S3ObjectStore(config.s3);
  return new LocalObjectStore(
    path.join(config.dataDir, 'objects'),
    new LocalCredentials(handle.db, clock, localStorageEndpoint(config), LOCAL_BUCKET, LOCAL_REGION),
    { reserveBytes: config.storageReserveBytes },
  );
}

/** How a process of the embedded default's supervisor opens its parts (cluster/supervisor.ts). */
export interface RuntimeOptions {
  /** The channel to the supervisor, which keeps the rate limits and passes proctoring changes between processes. */
  channel?: IpcChannel | undefined;
  /** False in a process whose supervisor had the schema brought up to date before starting it. */
  migrate?: boolean;
  /** Code judged at once in this process without Redis (default: one per core; less when processes share them). */
  judgeConcurrency?: number | undefined;
  /** Who checkpoints SQLite's WAL: under the supervisor the worker, never an API process's commit. */
  walCheckpoints?: WalCheckpoints | undefined;
  /** Hears every statement the database runs (the metrics count the failed ones). */
  dbLog?: ((event: LogEvent) => void) | undefined;
}

/**
 * Opens (and migrates) the configured database and connects the configured limiter and notifier: Redis's when
 * REDIS_URL is set, the supervisor's across the embedded default's processes, else this process's own.
 */
export async function openRuntime(config: Config, opts: RuntimeOptions = {}): Promise<Runtime> {
  const handle = openDb({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    ...(opts.walCheckpoints ? { walCheckpoints: opts.walCheckpoints } : {}),
    ...(opts.dbLog ? { log: opts.dbLog } : {}),
  });
  if (opts.migrate !== false) await migrate(handle);
  const { channel } = opts;
  const limiter: RateLimiter = config.redisUrl
    ? new RedisRateLimiter(new Redis(config.redisUrl, { maxRetriesPerRequest: 2, lazyConnect: false }))
    : channel
      ? new IpcRateLimiter(channel)
      : new MemoryRateLimiter();
  const judgeQueue: JudgeQueue = config.redisUrl
    ? new BullJudgeQueue(config.redisUrl)
    : new LocalJudgeQueue(opts.judgeConcurrency);
  // With several API processes a proctor's stream may live in another process than the candidate's writes.
  const notifier: ProctorNotifier = config.redisUrl
    ? new RedisNotifier(config.redisUrl)
    : channel
      ? new IpcNotifier(channel)
      : new InProcessNotifier();
  return {
    handle,
    limiter,
    judgeQueue,
    notifier,
    store: openStore(config, handle),
    async close() {
      await notifier.close();
      await judgeQueue.close();
      await limiter.close();
      await handle.db.destroy();
    },
  };
}
