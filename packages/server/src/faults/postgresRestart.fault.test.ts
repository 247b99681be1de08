/**
 * Fault: PostgreSQL goes away and comes back (every connection cut and new ones refused for a while, as a restart
 * does) while candidates save answers through two API processes. Saves fail meanwhile (503 `database_unavailable`,
 * or no answer) and the candidates send them again; afterwards every acknowledged change is in the database, and
 * each process is ready again by itself (/readyz 200) without a restart. CI cuts PostgreSQL for 5 s; at full scale
 * (FAULT_FULL=true) for 30 s.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { until } from '../test/processes.js';
import { faultCandidates, faultSeconds, readyStatus } from './cluster.js';
import { clusterForTests, clusterPartsHere, expectNoAnswerLost, startAnswerLoad, twoApis } from './answerChecks.js';

describe.runIf(await clusterPartsHere())('fault: PostgreSQL restarts under load', () => {
  const CANDIDATES = faultCandidates(12);
  const cluster = clusterForTests(CANDIDATES);

  it('loses no acknowledged answer, and the processes recover by themselves', async () => {
    const [first, second] = await twoApis(cluster());
    const apis = [first, second];
    const load = await startAnswerLoad({
      bases: () => apis.map((a) => a.base),
      examId: cluster().examId,
      candidates: await cluster().candidates(first, CANDIDATES),
      everyMs: 100,
      giveUpMs: 120_000,
    });
    await sleep(2_000);
    await cluster().proxies.postgres.close();
    const down = Date.now();
    const outage = faultSeconds(30, 5) * 1000;
    // Taken out of the balancer's rotation meanwhile, never hanging.
    await until(async () => (await readyStatus(first.base)) === 503, 10_000, 200);
    await sleep(Math.max(0, outage - (Date.now() - down)));
    const duringOutage = load.acknowledged.size;
    await cluster().proxies.postgres.open();
    const back = Date.now();
    for (const api of apis) await until(async () => (await readyStatus(api.base)) === 200, 30_000, 200);
    const readyAfterS = (Date.now() - back) / 1000;
    await sleep(2_000);
    await load.stop();

    await expectNoAnswerLost(
      cluster().db,
      load,
      'postgres-restart',
      `(PostgreSQL away ${(back - down) / 1000} s, both processes ready ${readyAfterS.toFixed(1)} s after it came back, ` +
        `${load.retries} sends retried, ${load.unacknowledged.length} without a receipt)`,
    );
    // Refused with the stable code a page sends again on, never a server error.
    expect([...load.failures.keys()].filter((k) => / 500 /.test(k))).toEqual([]);
    expect(load.acknowledged.size).toBeGreaterThan(duringOutage);
  }, 240_000);
});
