/**
 * Fault: Redis goes away and comes back empty (every connection cut and new ones refused for a while, its data gone
 * as after a restart without persistence) while candidates save answers through two API processes, follow their
 * event streams and have code judged by two workers. Saves go on or are sent again; the streams carry a proctor's
 * warning across processes again once Redis is back (the candidate's stream on one process, the proctor on the other,
 * so it travels on Redis); every accepted submit is judged, those the emptied queue lost queued again under their
 * ids (JudgeService.requeueLost and the status call). CI cuts Redis for 5 s; FAULT_FULL=true 30 s.
 */
import { Redis } from 'ioredis';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { clusterForTests, clusterPartsHere, twoApis } from './answerChecks.js';
import { until } from '../test/processes.js';
import { apiCall, faultCandidates, faultSeconds, readyStatus } from './cluster.js';
import { jobsFinished, judged, programmingQuestion, submitCode } from './judging.js';
import { AnswerLoad, answersFound, choiceQuestions } from './load.js';
import { CandidateStream } from './streams.js';

describe.runIf(await clusterPartsHere())('fault: Redis restarts under load', () => {
  const CANDIDATES = faultCandidates(10);
  const cluster = clusterForTests(CANDIDATES);

  it('loses no acknowledged answer, streams carry changes again, every judge job finishes', async () => {
    const [a, b] = await twoApis(cluster());
    const bases = () => [a.base, b.base];
    const candidates = await cluster().candidates(a, CANDIDATES);
    const choices = await choiceQuestions(a.base, cluster().examId, candidates[0]!.token);
    const subjectId = await programmingQuestion(a.base, cluster().examId, candidates[0]!.token);
    await cluster().startJudgeWorker();
    await cluster().startJudgeWorker();
    const proctor = await cluster().staffToken(b.base);
    const warn = (text: string, c: (typeof candidates)[number]) =>
      apiCall(b.base, 'POST', '/admin/proctor/warn', { bearer: proctor, body: { attempt_id: c.attemptId, text } });
    // The candidates' streams live on process A, the proctor works on B.
    const watched = candidates.slice(0, 3);
    const streams = watched.map((c) => new CandidateStream(() => [a.base], cluster().examId, c));
    for (const [i, c] of watched.entries()) {
      // Open first: a stream hears the warnings made while it is open.
      await streams[i]!.opened();
      await warn('before the fault', c);
      await streams[i]!.warned('before the fault');
    }

    const load = new AnswerLoad({
      bases,
      examId: cluster().examId,
      candidates,
      choices,
      everyMs: 100,
      giveUpMs: 120_000,
    });
    const jobs: Promise<{ c: (typeof candidates)[number]; jobId: string }>[] = [];
    const submit = (c: (typeof candidates)[number]) =>
      jobs.push(submitCode(bases, cluster().examId, subjectId, c, 120_000).then((jobId) => ({ c, jobId })));
    for (const c of candidates.slice(0, 3)) submit(c);
    await sleep(1_500);

    await cluster().proxies.redis.close();
    const down = Date.now();
    // Restarted without persistence: the judge queue's waiting and running jobs, locks and counters are gone.
    const direct = new Redis(cluster().redisUrl);
    const lostKeys = await direct.dbsize();
    await direct.flushall();
    await direct.quit();
    // Submits made while Redis is away (queued once it is back).
    for (const c of candidates.slice(3, 6)) submit(c);
    await until(async () => (await readyStatus(a.base)) === 503, 10_000, 200);
    await sleep(Math.max(0, faultSeconds(30, 5) * 1000 - (Date.now() - down)));
    await cluster().proxies.redis.open();
    const back = Date.now();
    for (const api of [a, b]) await until(async () => (await readyStatus(api.base)) === 200, 30_000, 200);
    const readyAfterS = (Date.now() - back) / 1000;

    // A change made on B reaches the streams on A again.
    for (const [i, c] of watched.entries()) {
      await until(async () => {
        await warn(`after the fault ${i}`, c).catch(() => undefined);
        return streams[i]!.warned(`after the fault ${i}`, 3_000).then(
          () => true,
          () => false,
        );
      }, 30_000);
    }
    const streamsBackS = (Date.now() - back) / 1000;
    await sleep(1_000);
    await load.stop();
    const started = await Promise.all(jobs);
    const results = await Promise.all(started.map((s) => judged(bases, cluster().examId, s.c, s.jobId)));
    for (const s of streams) await s.stop();

    const handle = cluster().db.open();
    try {
      const found = await answersFound(handle.db, load.acknowledged);
      const finished = await jobsFinished(
        handle.db,
        started.map((s) => s.jobId),
      );
      console.log(
        `[fault redis-restart] answers acknowledged ${load.acknowledged.size}, found ${found}; ` +
          `jobs started ${started.length}, finished ${finished} ` +
          `(Redis away ${(back - down) / 1000} s and emptied of ${lostKeys} keys; ready ${readyAfterS.toFixed(1)} s and streams carrying changes ` +
          `${streamsBackS.toFixed(1)} s after it came back, stream connections ${streams.map((s) => s.connections).join('/')}; ` +
          `${load.retries} saves retried, ${load.unacknowledged.length} without a receipt)`,
      );
      console.log(`[fault] failures on the way: ${load.failureKinds() || 'none'}`);
      expect(load.unacknowledged).toEqual([]);
      expect(found).toBe(load.acknowledged.size);
      expect(results.map((r) => r.verdict)).toEqual(started.map(() => 'AC'));
      expect(finished).toBe(started.length);
    } finally {
      await handle.db.destroy();
    }
  }, 240_000);
});
