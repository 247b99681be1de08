/**
 * Fault: kill -9 of one of two API processes while candidates save answers. The candidates alternate between the
 * two processes and send a change again (same client id) until they get a receipt, so they carry on through the
 * survivor; afterwards every acknowledged change is in the database. At full scale (FAULT_FULL=true) the load runs
 * for a minute after the kill with more candidates; see docs/deployment.md.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requirePart } from '../test/parts.js';
import { faultCandidates, faultSeconds, startCluster, type Cluster } from './cluster.js';
import { AnswerLoad, answersFound, choiceQuestions } from './load.js';

const partsHere = (await requirePart('postgres')) && (await requirePart('redis'));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.runIf(partsHere)('fault: an API process killed with SIGKILL under load', () => {
  let cluster: Cluster;
  const CANDIDATES = faultCandidates(12);
  beforeAll(async () => {
    cluster = await startCluster(CANDIDATES);
  }, 120_000);
  afterAll(async () => cluster?.close(), 60_000);

  it('loses no acknowledged answer: the candidates carry on through the other process', async () => {
    const [first] = cluster.apis;
    const second = await cluster.startApi();
    const candidates = await cluster.candidates(first!, CANDIDATES);
    const choices = await choiceQuestions(first!.base, cluster.examId, candidates[0]!.token);
    const load = new AnswerLoad({
      bases: () => [first!.base, second.base],
      examId: cluster.examId,
      candidates,
      choices,
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

    const handle = cluster.db.open();
    try {
      const found = await answersFound(handle.db, load.acknowledged);
      console.log(
        `[fault api-kill] answers acknowledged ${load.acknowledged.size}, found ${found} ` +
          `(${afterKill} after the kill, ${load.retries} sends retried, ${load.unacknowledged.length} without a receipt)`,
      );
      console.log(`[fault] failures on the way: ${load.failureKinds() || 'none'}`);
      expect(load.unacknowledged).toEqual([]);
      expect(beforeKill).toBeGreaterThan(0);
      expect(afterKill).toBeGreaterThan(0);
      expect(found).toBe(load.acknowledged.size);
    } finally {
      await handle.db.destroy();
    }
  }, 240_000);
});
