import path from 'node:path';
import { BullJudgeQueue, LocalJudgeQueue, type JudgeQueue } from '@examhall/judge';
import { Redis } from 'ioredis';
import type { Config } from './config.js';
import { migrate, openDb, type DbHandle } from './db/database.js';
import { MemoryRateLimiter, RedisRateLimiter, type RateLimiter } from './ratelimit/limiter.js';
import { LocalObjectStore, type ObjectStore } from './storage/objectStore.js';

/** The parts a process runs on: the database (migrated), the rate limiter, object storage and the judge queue. */
export interface Runtime {
  handle: DbHandle;
  limiter: RateLimiter;
  store: ObjectStore;
  /** Where code is judged: in this process, or by judge workers through Redis. */
  judgeQueue: JudgeQueue;
  /** Closes connections. */
  close(): Promise<void>;
}

/** Opens and migrates the configured database and connects the configured limiter. */
export async function openRuntime(config: Config): Promise<Runtime> {
  const handle = openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  await migrate(handle);
  const limiter: RateLimiter = config.redisUrl
    ? new RedisRateLimiter(new Redis(config.redisUrl, { maxRetriesPerRequest: 2, lazyConnect: false }))
    : new MemoryRateLimiter();
  const judgeQueue: JudgeQueue = config.redisUrl ? new BullJudgeQueue(config.redisUrl) : new LocalJudgeQueue();
  return {
    handle,
    limiter,
    judgeQueue,
    store: new LocalObjectStore(path.join(config.dataDir, 'objects')),
    async close() {
      await judgeQueue.close();
      await limiter.close();
      await handle.db.destroy();
    },
  };
}
