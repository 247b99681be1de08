/**
 * A process with a periodic task on Redis, for the test that two processes run each period once between them
 * (run with tsx's loader): every run records its process and the period slot it ran in a Redis list. Prints
 * "ready" once its timers run; the test stops it.
 *
 * Environment: JOB_REDIS, JOB_PREFIX (key prefix), PERIOD_MS, WORKER (a name for this process).
 */
import { Redis } from 'ioredis';
import { RedisScheduler } from '../jobs/periodic.js';

const url = process.env.JOB_REDIS ?? '';
const prefix = process.env.JOB_PREFIX ?? 'examhall-test:';
const periodMs = Number(process.env.PERIOD_MS ?? 250);
const redis = new Redis(url);
const scheduler = new RedisScheduler(url, `${prefix}periodic:`);
scheduler.start([
  {
    name: 'count',
    periodMs,
    run: async () => {
      await redis.rpush(`${prefix}runs`, `${process.env.WORKER}:${Math.floor(Date.now() / periodMs)}`);
    },
  },
]);
process.stdout.write('ready\n');
