/**
 * The job system on Redis: a BullMQ worker process killed with SIGKILL in the middle of a job loses and
 * duplicates nothing (a second worker finishes it from the checkpoint), on both dialects; and periodic tasks of
 * two schedulers with their own Redis connections (two API processes) run once per period.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JobRepository } from '../repositories/jobs.js';
import { testedDialects } from '../test/db.js';
import { effectCounts, sharedDb, testHandlers, type SharedDb, type TestKind } from '../test/jobKinds.js';
import { requirePart, TEST_REDIS_URL } from '../test/parts.js';
import { startScript, until } from '../test/processes.js';
import { BullJobQueue, REDELIVER_AFTER_MS } from './bullmq.js';
import { LocalScheduler, RedisScheduler } from './periodic.js';
import type { PeriodicScheduler } from './types.js';

const redisHere = await requirePart('redis');
const owner = { staffId: null, teamId: null };

describe.runIf(redisHere).each(await testedDialects())('jobs on Redis (BullMQ) with %s', (dialect) => {
  let shared: SharedDb;
  let prefix: string;
  const closers: (() => Promise<unknown>)[] = [];

  beforeEach(async () => {
    shared = await sharedDb(dialect);
    // Each run its own keys: runs of other files on the same Redis neither see nor take these jobs.
    prefix = `examhall-test-${randomUUID()}`;
  });
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
    await shared.drop();
  });

  it('a worker process killed mid-job loses and duplicates nothing: a second worker finishes from the checkpoint', async () => {
    const leaseMs = 1_000;
    const env = { ...shared.env, JOB_REDIS: TEST_REDIS_URL, JOB_PREFIX: prefix, JOB_LEASE_MS: String(leaseMs) };
    const child = await startScript('jobWorker.ts', env);
    closers.push(async () => void child.kill('SIGKILL'));
    // This side only enqueues, as an API process does.
    const api = new BullJobQueue<TestKind>(shared.open(), testHandlers(), TEST_REDIS_URL, { prefix, work: false });
    closers.push(() => api.close());
    const id = await api.enqueue({ kind: 'items', payload: { n: 20, delayMs: 40 }, owner });

    await until(async () => ((await effectCounts(shared.db, id)).size >= 5 ? true : undefined));
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    const doneByFirst = (await effectCounts(shared.db, id)).size;
    expect(doneByFirst).toBeLessThan(20);

    const second = new BullJobQueue<TestKind>(shared.open(), testHandlers(), TEST_REDIS_URL, {
      prefix,
      leaseMs,
      concurrency: 1,
    });
    closers.push(() => second.close());
    await second.start();
    const job = await until(async () => {
      const row = await new JobRepository(shared.db).byId(id);
      return row && ['done', 'failed', 'cancelled'].includes(row.state) && row;
    });
    expect(job.error_message).toBeNull();
    expect(job.state).toBe('done');
    expect(job.attempts).toBe(2);
    expect(JSON.parse(job.result!)).toEqual({ n: 20, mine: 20 - doneByFirst });
    const counts = await effectCounts(shared.db, id);
    expect([...counts.entries()].sort((a, b) => a[0] - b[0])).toEqual(Array.from({ length: 20 }, (_, i) => [i, 1]));
  }, 60_000);

  it('a job Redis lost (restarted without its data) is delivered again once, and runs once', async () => {
    let now = Date.now();
    const clock = () => now;
    const api = new BullJobQueue<TestKind>(shared.open(), testHandlers(), TEST_REDIS_URL, {
      prefix,
      work: false,
      clock,
    });
    closers.push(() => api.close());
    const id = await api.enqueue({ kind: 'items', payload: { n: 3, delayMs: 1 }, owner });
    const redis = new Redis(TEST_REDIS_URL);
    closers.push(() => redis.quit());
    const keys = await redis.keys(`${prefix}:*`);
    expect(keys.length).toBeGreaterThan(0);
    await redis.del(...keys);

    // Still recent: a job may wait its turn that long.
    expect(await api.redeliverLost()).toBe(0);
    now += REDELIVER_AFTER_MS + 1;
    expect(await api.redeliverLost()).toBe(1);
    // Delivered and waiting in Redis: not delivered twice.
    expect(await api.redeliverLost()).toBe(0);

    const worker = new BullJobQueue<TestKind>(shared.open(), testHandlers(), TEST_REDIS_URL, {
      prefix,
      concurrency: 1,
    });
    closers.push(() => worker.close());
    await worker.start();
    const job = await until(async () => {
      const row = await new JobRepository(shared.db).byId(id);
      return row && ['done', 'failed', 'cancelled'].includes(row.state) && row;
    });
    expect(job.state).toBe('done');
    expect(job.attempts).toBe(1);
    const counts = await effectCounts(shared.db, id);
    expect([...counts.values()]).toEqual([1, 1, 1]);
  }, 60_000);
});

describe.runIf(redisHere)('periodic tasks', () => {
  const schedulers: PeriodicScheduler[] = [];
  afterEach(async () => {
    for (const s of schedulers.splice(0)) await s.close();
  });

  /** Runs `make()` schedulers for `periods` periods of `periodMs`; answers how many runs each made. */
  async function count(make: () => PeriodicScheduler, processes: number, periodMs: number, periods: number) {
    const runs = Array.from({ length: processes }, () => 0);
    for (let i = 0; i < processes; i++) {
      const s = make();
      schedulers.push(s);
      s.start([
        {
          name: 'count',
          periodMs,
          run: async () => {
            runs[i]! += 1;
          },
        },
      ]);
    }
    await new Promise((resolve) => setTimeout(resolve, periodMs * periods));
    for (const s of schedulers.splice(0)) await s.close();
    return runs;
  }

  it('two schedulers on their own Redis connections run each periodic task once per period between them', async () => {
    const prefix = `examhall-test-${randomUUID()}:periodic:`;
    const periodMs = 250;
    const runs = await count(() => new RedisScheduler(TEST_REDIS_URL, prefix), 2, periodMs, 12);
    const total = runs[0]! + runs[1]!;
    // 12 periods pass: the slots that started in them ran once each (not once per process, which would be ~24).
    expect(total).toBeGreaterThanOrEqual(10);
    expect(total).toBeLessThanOrEqual(12);
  });

  it('two processes of their own on Redis run a periodic task once per period between them', async () => {
    const prefix = `examhall-test-${randomUUID()}:`;
    // Long enough that a busy machine does not delay a timer past a whole period.
    const periodMs = 1_000;
    const env = { JOB_REDIS: TEST_REDIS_URL, JOB_PREFIX: prefix, PERIOD_MS: String(periodMs) };
    const workers = await Promise.all(['a', 'b'].map((w) => startScript('periodicWorker.ts', { ...env, WORKER: w })));
    const redis = new Redis(TEST_REDIS_URL);
    try {
      await new Promise((resolve) => setTimeout(resolve, periodMs * 9));
      for (const w of workers) w.kill('SIGKILL');
      const runs = await redis.lrange(`${prefix}runs`, 0, -1);
      const slots = runs.map((r) => Number(r.split(':')[1]));
      // Each slot ran in one process only, and no period in between was left out.
      expect(new Set(slots).size).toBe(slots.length);
      expect(slots.length).toBeGreaterThanOrEqual(7);
      expect(Math.max(...slots) - Math.min(...slots) + 1).toBe(slots.length);
    } finally {
      for (const w of workers) w.kill('SIGKILL');
      await redis.del(`${prefix}runs`);
      await redis.quit();
    }
  });

  it('without the lock each process would run every period (what the Redis lock prevents)', async () => {
    const runs = await count(() => new LocalScheduler(), 2, 250, 12);
    expect(runs[0]! + runs[1]!).toBeGreaterThanOrEqual(20);
  });
});
