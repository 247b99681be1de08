/**
 * Fault: kill -9 of one of the supervisor's two API processes (PROCESSES=2, the embedded default on SQLite) while
 * candidates save answers through the one port. A candidate whose connection was to the killed process sends the
 * change again (same client id) as the page does, and node:cluster hands the new connection to a living process;
 * afterwards every acknowledged change is in the database, and the supervisor has started the process again.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  candidatesInExam,
  freshDb,
  smsInbox,
  startServer,
  type BenchDb,
  type ServerProcess,
} from '../bench/harness.js';
import { tsxLoader, until, supervisedPids, killPids } from '../test/processes.js';
import { faultCandidates, faultSeconds, type ExamCandidate } from './cluster.js';
import { AnswerLoad, answersFound, choiceQuestions } from './load.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('fault: an API process of the supervisor killed with SIGKILL under load', () => {
  const CANDIDATES = faultCandidates(20);
  let db: BenchDb;
  let inbox: Awaited<ReturnType<typeof smsInbox>>;
  let server: ServerProcess;
  let output = '';

  beforeAll(async () => {
    db = await freshDb('sqlite');
    inbox = await smsInbox();
    server = await startServer(
      {
        ...db.env,
        PROCESSES: '2',
        FACE_WORKERS: '1',
        SMS_PROVIDER: 'webhook',
        SMS_WEBHOOK_URL: inbox.url,
        SMS_RATE: '10000',
        ADMISSION_RATE: '0',
        WEB_DIST: '/nonexistent',
        LOG_LEVEL: 'error',
        SHUTDOWN_GRACE_MS: '2000',
      },
      3,
      { main: path.resolve(here, '../main.ts'), nodeArgs: ['--import', tsxLoader] },
    );
    server.child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  }, 120_000);

  afterAll(async () => {
    // The supervisor's processes are found before it goes: once it is gone they have no parent to be found by.
    const supervisor = server?.child.pid;
    const children = supervisor ? supervisedPids(supervisor) : [];
    await server?.stop('SIGKILL');
    killPids(children);
    inbox?.close();
    await db?.drop();
  }, 60_000);

  it('loses no acknowledged answer, and the supervisor starts the process again', async () => {
    const { tokens, examId } = await candidatesInExam(server, db, inbox, CANDIDATES);
    const candidates: ExamCandidate[] = tokens.map((token, i) => ({
      phone: '',
      ip: `10.${i >> 8}.${i & 255}.1`,
      token,
      attemptId: 0,
    }));
    const choices = await choiceQuestions(server.base, examId, tokens[0]!);
    // Both API processes listen by now (the supervisor reports listening after the first).
    await until(async () => supervisedPids(server.child.pid!).length === 3, 60_000);
    const load = new AnswerLoad({
      bases: () => [server.base],
      examId,
      candidates,
      choices,
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

    const handle = db.open();
    try {
      const found = await answersFound(handle.db, load.acknowledged);
      console.log(
        `[fault supervisor-kill] answers acknowledged ${load.acknowledged.size}, found ${found} ` +
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

    const after = await until(async () => {
      const now = supervisedPids(server.child.pid!);
      return now.length === 3 && !now.includes(victim) ? now : undefined;
    }, 60_000);
    expect(after).not.toContain(victim);
    expect(output).toMatch(new RegExp(`api process \\d \\(pid ${victim}\\) ended \\(SIGKILL\\); starting it again`));
  }, 240_000);
});
