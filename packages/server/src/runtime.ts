import path from 'node:path';
import { BullJudgeQueue, LocalJudgeQueue, type JudgeQueue } from '@examhall/judge';
import { Redis } from 'ioredis';
import type { Config } from './config.js';
import { migrate, openDb, type DbHandle } from './db/database.js';
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

/** Opens and migrates the configured database and connects the configured limiter. */
export async function openRuntime(config: Config): Promise<Runtime> {
  const handle = openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  await migrate(handle);
  const limiter: RateLimiter = config.redisUrl
    ? new RedisRateLimiter(new Redis(config.redisUrl, { maxRetriesPerRequest: 2, lazyConnect: false }))
    : new MemoryRateLimiter();
  const judgeQueue: JudgeQueue = config.redisUrl ? new BullJudgeQueue(config.redisUrl) : new LocalJudgeQueue();
  // With several API processes a proctor's stream may live in another process than the candidate's writes.
  const notifier: ProctorNotifier = config.redisUrl ? new RedisNotifier(config.redisUrl) : new InProcessNotifier();
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
