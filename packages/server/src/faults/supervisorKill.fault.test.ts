/**
 * Fault: kill -9 of one of the supervisor's two API processes (PROCESSES=2, the embedded default on SQLite) while
 * candidates save answers through the one port. A candidate whose connection was to the killed process sends the
 * change again (same client id) as the page does, and node:cluster hands the new connection to a living process;
 * afterwards every acknowledged change is in the database, and the supervisor has started the process again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { candidatesInExam, type BenchDb, type ServerProcess } from '../bench/harness.js';
import { until, supervisedPids } from '../test/processes.js';
import { startSupervised, type Supervised } from '../test/supervised.js';
import { faultCandidates, faultSeconds, type ExamCandidate } from './cluster.js';
import { expectNoAnswerLost, startAnswerLoad } from './answerChecks.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('fault: an API process of the supervisor killed with SIGKILL under load', () => {
  const CANDIDATES = faultCandidates(20);
  let db: BenchDb;
  let inbox: Supervised['inbox'];
  let server: ServerProcess;
  let output = '';

  let supervised: Supervised | undefined;

  beforeAll(async () => {
    supervised = await startSupervised({
      SMS_RATE: '10000',
      ADMISSION_RATE: '0',
      LOG_LEVEL: 'error',
    });
    ({ db, inbox, server } = supervised);
    server.child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  }, 120_000);

  afterAll(async () => supervised?.stop(), 60_000);

  it('loses no acknowledged answer, and the supervisor starts the process again', async () => {
    const { tokens, examId } = await candidatesInExam(server, db, inbox, CANDIDATES);
    const candidates: ExamCandidate[] = tokens.map((token, i) => ({
      phone: '',
      ip: `10.${i >> 8}.${i & 255}.1`,
      token,
      attemptId: 0,
    }));
    // Both API processes listen by now (the supervisor reports listening after the first).
    await until(async () => supervisedPids(server.child.pid!).length === 3, 60_000);
    const load = await startAnswerLoad({
      bases: () => [server.base],
      examId,
      candidates,
      everyMs: 50,
      giveUpMs: 60_000,
    });
    await sleep(2_000);
    const before = supervisedPids(server.child.pid!);
    // The worker starts first; the last started is an API process.
    const victim = before[before.length - 1]!;
    const beforeKill = load.acknowledged.size;
    process.kill(victim, 'SIGKILL');
    await sleep(faultSeconds(60, 4) * 1000);
    await load.stop();
    const afterKill = load.acknowledged.size - beforeKill;

    await expectNoAnswerLost(
      db,
      load,
      'supervisor-kill',
      `(${afterKill} after the kill, ${load.retries} sends retried, ${load.unacknowledged.length} without a receipt)`,
    );
    expect(beforeKill).toBeGreaterThan(0);
    expect(afterKill).toBeGreaterThan(0);

    const after = await until(async () => {
      const now = supervisedPids(server.child.pid!);
      return now.length === 3 && !now.includes(victim) ? now : undefined;
    }, 60_000);
    expect(after).not.toContain(victim);
    expect(output).toMatch(new RegExp(`api process \\d \\(pid ${victim}\\) ended \\(SIGKILL\\); starting it again`));
  }, 240_000);
});
