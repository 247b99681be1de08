/**
 * Fault: kill -9 of one of two API processes while candidates save answers. The candidates alternate between the
 * two processes and send a change again (same client id) until they get a receipt, so they carry on through the
 * survivor; afterwards every acknowledged change is in the database. At full scale (FAULT_FULL=true) the load runs
 * for a minute after the kill with more candidates; see docs/deployment.md.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { faultCandidates, faultSeconds } from './cluster.js';
import { clusterForTests, clusterPartsHere, expectNoAnswerLost, startAnswerLoad, twoApis } from './answerChecks.js';

describe.runIf(await clusterPartsHere())('fault: an API process killed with SIGKILL under load', () => {
  const CANDIDATES = faultCandidates(12);
  const cluster = clusterForTests(CANDIDATES);

  it('loses no acknowledged answer: the candidates carry on through the other process', async () => {
    const [first, second] = await twoApis(cluster());
    const load = await startAnswerLoad({
      bases: () => [first.base, second.base],
      examId: cluster().examId,
      candidates: await cluster().candidates(first, CANDIDATES),
      everyMs: 100,
      giveUpMs: 60_000,
    });
    await sleep(2_000);
    const beforeKill = load.acknowledged.size;
    second.child.kill('SIGKILL');
    await new Promise((resolve) => second.child.once('exit', resolve));
    await sleep(faultSeconds(60, 4) * 1000);
    await load.stop();
    const afterKill = load.acknowledged.size - beforeKill;

    await expectNoAnswerLost(
      cluster().db,
      load,
      'api-kill',
      `(${afterKill} after the kill, ${load.retries} sends retried, ${load.unacknowledged.length} without a receipt)`,
    );
    expect(beforeKill).toBeGreaterThan(0);
    expect(afterKill).toBeGreaterThan(0);
  }, 240_000);
});
