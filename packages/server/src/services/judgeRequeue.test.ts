/**
 * A judge queue that loses its jobs (Redis restarted without its data, or an in-process queue restarted) loses no
 * candidate's run or submit: the job is queued again under the id the candidate's page polls, by the status call
 * or by the cluster's sweep, and ends with its verdict and the attempt's score.
 */
import { randomUUID } from 'node:crypto';
import { BullJudgeQueue, runWorker, type WorkerHandle } from '@examhall/judge';
import { QuestionType } from '@examhall/contract';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { body, createTestApp, type TestApp } from '../test/app.js';
import { testedDialects } from '../test/db.js';
import { TEST_REDIS_URL, requirePart } from '../test/parts.js';
import { codingCandidate, PY_SUM } from '../test/programs.js';
import { JUDGE_REQUEUE_AFTER_MS } from './judging.js';

const redisHere = await requirePart('redis');

describe.runIf(redisHere).each(await testedDialects())('judge jobs the queue lost, on %s', (dialect) => {
  const name = `examhall-judge-requeue-${dialect}-${process.pid}-${Date.now()}`;
  let queue: BullJudgeQueue;
  let worker: WorkerHandle | undefined;
  let redis: Redis;
  let t: TestApp;
  let token: string;
  let examId: number;
  let prog: number;

  beforeAll(async () => {
    queue = new BullJudgeQueue(TEST_REDIS_URL, name);
    await queue.ready();
    redis = new Redis(TEST_REDIS_URL);
    t = await createTestApp(dialect, { judgeQueue: queue });
    const entered = await codingCandidate(t);
    ({ examId, token } = entered);
    prog = entered.order.find((q) => q.type === QuestionType.programming)!.id;
  });
  afterAll(async () => {
    await worker?.close();
    await t?.close();
    await queue?.close();
    await redis?.quit();
  });

  /** Submits the right answer while no worker runs; answers the job id. */
  async function submitWaiting(): Promise<string> {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/answer/judge?auth=${token}`,
      payload: {
        exam_id: examId,
        client_id: randomUUID(),
        subject_id: prog,
        language: 'python',
        code: PY_SUM,
        mode: 'submit',
      },
    });
    const data = body<{ job_id: string; state: string }>(res).data;
    expect(data.state).toBe('queued');
    return data.job_id;
  }

  /** What a Redis restarted without persistence holds of the queue: nothing. */
  async function loseQueue(jobId: string): Promise<void> {
    const keys = await redis.keys(`bull:${name}:*`);
    if (keys.length > 0) await redis.del(...keys);
    expect(await queue.status(jobId)).toBeUndefined();
  }

  const status = async (jobId: string) =>
    body<{ state: string; verdict: string | null }>(
      await t.app.inject(`/api/answer/judge-status?exam_id=${examId}&job_id=${jobId}&auth=${token}`),
    ).data;

  const finished = async (jobId: string) =>
    await t.db.handle.db
      .selectFrom('judge_runs')
      .select(['verdict', 'finished_at'])
      .where('job_id', '=', jobId)
      .executeTakeFirstOrThrow();

  it('the sweep queues again a lost submit under its id, and the verdict is recorded without anyone asking', async () => {
    const jobId = await submitWaiting();
    await loseQueue(jobId);
    // Too recent for the sweep: a job just queued is left alone.
    expect(await t.services.judge.requeueLost()).toBe(0);
    t.advance(JUDGE_REQUEUE_AFTER_MS + 1);
    expect(await t.services.judge.requeueLost()).toBe(1);
    expect((await queue.status(jobId))?.state).toBe('queued');
    // Swept again while queued: nothing is added twice.
    expect(await t.services.judge.requeueLost()).toBe(0);
    worker = await runWorker(TEST_REDIS_URL, { queue: name, concurrency: 1 });
    await expect.poll(async () => (await finished(jobId)).verdict, { timeout: 60_000, interval: 200 }).toBe('AC');
    expect(await status(jobId)).toMatchObject({ state: 'done', verdict: 'AC' });
  });

  it("a status call queues a lost job again at once, and the candidate's page sees it through", async () => {
    await worker?.close();
    worker = undefined;
    const jobId = await submitWaiting();
    await loseQueue(jobId);
    expect(await status(jobId)).toMatchObject({ state: 'queued', verdict: null });
    worker = await runWorker(TEST_REDIS_URL, { queue: name, concurrency: 1 });
    await expect.poll(async () => (await status(jobId)).verdict, { timeout: 60_000, interval: 200 }).toBe('AC');
    expect((await finished(jobId)).verdict).toBe('AC');
  });
});
