import { execFileSync, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JudgeProgress, JudgeTask } from '../types.js';
import { BullJudgeQueue, runWorker } from './bullmq.js';
import type { WorkerHandle } from './bullmq.js';
import { toJudgeData } from './data.js';
import { LocalJudgeQueue } from './local.js';
import type { JudgeQueue } from './types.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/0';
const CI = process.env.CI === 'true';
const pkg = fileURLToPath(new URL('../..', import.meta.url));

const task = (sleep = 0): JudgeTask => ({
  language: 'bash',
  source: `read a b\n${sleep ? `sleep ${sleep}\n` : ''}echo $((a+b))\n`,
  cases: [
    { input: '1 2\n', expected: '3\n' },
    { input: '2 2\n', expected: '4\n' },
    { input: '5 5\n', expected: '11\n' },
  ],
  timeLimitMs: 3000,
  memoryLimitMb: 64,
});

async function redisUp(): Promise<boolean> {
  const r = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await r.connect();
    return (await r.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    r.disconnect();
  }
}

async function exercise(queue: JudgeQueue): Promise<void> {
  const events: [string, JudgeProgress][] = [];
  const off = queue.onProgress((id, e) => events.push([id, e]));
  const ids = await Promise.all([queue.submit(task()), queue.submit(task()), queue.submit(task())]);
  expect(new Set(ids).size).toBe(3);
  const results = await Promise.all(ids.map((id) => queue.wait(id, 60_000)));
  for (const r of results) {
    expect(r.verdict).toBe('WA');
    expect(r.cases.map((c) => c.verdict)).toEqual(['AC', 'AC', 'WA']);
  }
  const status = await queue.status(ids[0]!);
  expect(status).toMatchObject({ state: 'done', total: 3 });
  expect(toJudgeData(status!, false)).toMatchObject({ job_id: ids[0], state: 'done', verdict: 'WA', total: 3 });
  expect(toJudgeData(status!, false).cases.every((c) => c.output === undefined)).toBe(true);
  // Progress events may trail the result over Redis; give them a moment.
  for (let i = 0; i < 50 && events.filter(([, e]) => e.type === 'case').length < 9; i++)
    await new Promise((r) => setTimeout(r, 50));
  for (const id of ids) {
    const mine = events.filter(([j]) => j === id).map(([, e]) => e);
    expect(mine[0]).toMatchObject({ type: 'compiled', ok: true });
    expect(mine.filter((e) => e.type === 'case').map((e) => (e.type === 'case' ? e.done : 0))).toEqual([1, 2, 3]);
  }
  off();
  // A lost job queued again under the id its caller knows; the same id once more while known changes nothing.
  const known = randomUUID();
  expect(await queue.status(known)).toBeUndefined();
  expect(await queue.submit(task(), known)).toBe(known);
  expect(await queue.submit({ ...task(), cases: [{ input: '1 1\n', expected: '2\n' }] }, known)).toBe(known);
  const again = await queue.wait(known, 60_000);
  expect(again.cases.map((c) => c.verdict)).toEqual(['AC', 'AC', 'WA']);
  expect((await queue.status(known))?.total).toBe(3);
  expect(await queue.status(randomUUID())).toBeUndefined();
  await expect(queue.submit({ ...task(), timeLimitMs: 10 ** 9 })).rejects.toThrow(/timeLimitMs/);
}

describe('in-process queue', () => {
  it('judges jobs, reports progress and status', async () => {
    const queue = new LocalJudgeQueue(2);
    await exercise(queue);
    await queue.close();
  });
});

describe('BullMQ queue on Redis', async () => {
  const up = await redisUp();
  if (!up && CI) {
    it('needs Redis', () => expect.fail(`Redis is not answering at ${REDIS_URL}`));
    return;
  }
  const name = `examhall-judge-test-${process.pid}-${Date.now()}`;
  let worker: WorkerHandle | undefined;
  let queue: BullJudgeQueue | undefined;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    if (!up) return;
    queue = new BullJudgeQueue(REDIS_URL, name);
    await queue.ready();
  });
  afterAll(async () => {
    for (const c of children) c.kill('SIGKILL');
    await worker?.close();
    await queue?.close();
  });

  it.skipIf(!up)('judges jobs in a worker, with progress through Redis', async () => {
    worker = await runWorker(REDIS_URL, { queue: name, concurrency: 2 });
    await exercise(queue!);
    await worker.close();
    worker = undefined;
  });

  it.skipIf(!up)('a worker killed mid-job does not lose it: another worker completes it', async () => {
    // The bin as operators run it: build it first.
    execFileSync('npx', ['tsc', '-b', 'tsconfig.build.json'], { cwd: pkg, stdio: 'inherit' });
    const start = (): ChildProcess => {
      const child = spawn(
        process.execPath,
        [
          'dist/cli.js',
          'worker',
          '--redis',
          REDIS_URL,
          '--queue',
          name,
          '--concurrency',
          '1',
          '--lock-duration',
          '3000',
          '--stalled-interval',
          '1000',
        ],
        { cwd: pkg, stdio: ['ignore', 'pipe', 'inherit'] },
      );
      children.push(child);
      return child;
    };
    const ready = (child: ChildProcess): Promise<void> =>
      new Promise((resolve) => child.stdout!.on('data', (d: Buffer) => d.toString().includes('ready') && resolve()));
    const first = start();
    await ready(first);
    const seen: JudgeProgress[] = [];
    const id = await queue!.submit(task(1));
    const off = queue!.onProgress((j, e) => j === id && seen.push(e));
    // Kill the worker once it has judged a case (so it is mid-job for sure).
    for (let i = 0; i < 200 && !seen.some((e) => e.type === 'case'); i++) await new Promise((r) => setTimeout(r, 50));
    expect(seen.some((e) => e.type === 'case')).toBe(true);
    expect((await queue!.status(id))?.state).toBe('running');
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));
    const second = start();
    await ready(second);
    const result = await queue!.wait(id, 60_000);
    off();
    expect(result.verdict).toBe('WA');
    expect(result.cases.map((c) => c.verdict)).toEqual(['AC', 'AC', 'WA']);
    expect((await queue!.status(id))?.state).toBe('done');
  });
});
