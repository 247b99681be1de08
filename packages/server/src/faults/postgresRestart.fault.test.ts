/**
 * Fault: PostgreSQL goes away and comes back (every connection cut and new ones refused for a while, as a restart
 * does) while candidates save answers through two API processes. Saves fail meanwhile (503 `database_unavailable`,
 * or no answer) and the candidates send them again; afterwards every acknowledged change is in the database, and
 * each process is ready again by itself (/readyz 200) without a restart. CI cuts PostgreSQL for 5 s; at full scale
 * (FAULT_FULL=true) for 30 s.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requirePart } from '../test/parts.js';
import { until } from '../test/processes.js';
import { faultCandidates, faultSeconds, readyStatus, startCluster, type Cluster } from './cluster.js';
import { AnswerLoad, answersFound, choiceQuestions } from './load.js';

const partsHere = (await requirePart('postgres')) && (await requirePart('redis'));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.runIf(partsHere)('fault: PostgreSQL restarts under load', () => {
  let cluster: Cluster;
  const CANDIDATES = faultCandidates(12);
  beforeAll(async () => {
    cluster = await startCluster(CANDIDATES);
  }, 120_000);
  afterAll(async () => cluster?.close(), 60_000);

  it('loses no acknowledged answer, and the processes recover by themselves', async () => {
    const [first] = cluster.apis;
    const second = await cluster.startApi();
    const apis = [first!, second];
    const candidates = await cluster.candidates(first!, CANDIDATES);
    const choices = await choiceQuestions(first!.base, cluster.examId, candidates[0]!.token);
    const load = new AnswerLoad({
      bases: () => apis.map((a) => a.base),
      examId: cluster.examId,
      candidates,
      choices,
      everyMs: 100,
      giveUpMs: 120_000,
    });
    await sleep(2_000);
    await cluster.proxies.postgres.close();
    const down = Date.now();
    const outage = faultSeconds(30, 5) * 1000;
    // Taken out of the balancer's rotation meanwhile, never hanging.
    await until(async () => (await readyStatus(first!.base)) === 503, 10_000, 200);
    await sleep(Math.max(0, outage - (Date.now() - down)));
    const duringOutage = load.acknowledged.size;
    await cluster.proxies.postgres.open();
    const back = Date.now();
    for (const api of apis) await until(async () => (await readyStatus(api.base)) === 200, 30_000, 200);
    const readyAfterS = (Date.now() - back) / 1000;
    await sleep(2_000);
    await load.stop();

    const handle = cluster.db.open();
    try {
      const found = await answersFound(handle.db, load.acknowledged);
      console.log(
        `[fault postgres-restart] answers acknowledged ${load.acknowledged.size}, found ${found} ` +
          `(PostgreSQL away ${(back - down) / 1000} s, both processes ready ${readyAfterS.toFixed(1)} s after it came back, ` +
          `${load.retries} sends retried, ${load.unacknowledged.length} without a receipt)`,
      );
      console.log(`[fault] failures on the way: ${load.failureKinds() || 'none'}`);
      expect(load.unacknowledged).toEqual([]);
      // Refused with the stable code a page sends again on, never a server error.
      expect([...load.failures.keys()].filter((k) => / 500 /.test(k))).toEqual([]);
      expect(load.acknowledged.size).toBeGreaterThan(duringOutage);
      expect(found).toBe(load.acknowledged.size);
    } finally {
      await handle.db.destroy();
    }
  }, 240_000);
});
