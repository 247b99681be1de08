import type { Db } from '../db/database.js';
import type { Instruments } from '../ops/metrics.js';
import type { ServiceLog } from '../log.js';
import { BullJobQueue } from './bullmq.js';
import { LocalJobQueue } from './local.js';
import { LocalScheduler, RedisScheduler } from './periodic.js';
import type { JobHandlers, JobQueue, PeriodicScheduler } from './types.js';

export type * from './types.js';
export { JobLeaseLost, FINAL_STATES } from './types.js';

/** Where jobs and periodic tasks run: Redis when given (BullMQ, a lock per period), else this process. */
export interface JobsSetup {
  redisUrl?: string | undefined;
  /** Redis key prefix of the queue and the periodic locks (tests give each run its own). */
  prefix?: string | undefined;
  /** How long a runner's claim lasts without renewal, ms. */
  leaseMs?: number | undefined;
  /** How often the in-process runner looks at the table, ms. */
  pollMs?: number | undefined;
  log?: ServiceLog | undefined;
  /** Where job durations are reported. */
  metrics?: Instruments | undefined;
  /** Runs the periodic tasks instead of the one REDIS_URL chooses (tests hold the tasks to run them by hand). */
  scheduler?: PeriodicScheduler | undefined;
}

/** The configured job queue: BullMQ on Redis, else the in-process runner on the table. */
export function openJobQueue<K extends string>(db: Db, handlers: JobHandlers<K>, setup: JobsSetup): JobQueue<K> {
  const common = {
    ...(setup.leaseMs !== undefined ? { leaseMs: setup.leaseMs } : {}),
    ...(setup.log ? { log: setup.log } : {}),
    ...(setup.metrics ? { metrics: setup.metrics } : {}),
  };
  if (setup.redisUrl) {
    return new BullJobQueue(db, handlers, setup.redisUrl, {
      ...common,
      ...(setup.prefix ? { prefix: `${setup.prefix}bull` } : {}),
    });
  }
  return new LocalJobQueue(db, handlers, {
    ...common,
    ...(setup.pollMs !== undefined ? { pollMs: setup.pollMs } : {}),
  });
}

/** The configured periodic scheduler: a Redis lock per period, else timers in this process. */
export function openScheduler(setup: JobsSetup): PeriodicScheduler {
  if (setup.scheduler) return setup.scheduler;
  if (setup.redisUrl) {
    return new RedisScheduler(setup.redisUrl, `${setup.prefix ?? 'examhall:'}periodic:`, undefined, setup.log);
  }
  return new LocalScheduler(undefined, setup.log);
}
