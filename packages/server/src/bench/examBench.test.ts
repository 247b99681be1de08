/**
 * bench:exam at a tiny scale against a real server process (run from the sources): every call of the mix is made,
 * none fails, every candidate reaches a question, the last printed line is the summary JSON, and the JSON and
 * chart files are written. The cluster mode the same against two API processes on PostgreSQL, Redis and s3rver:
 * both processes answer candidates. No timings are asserted: the figures are the bench's business.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { dialectAvailable } from '../test/db.js';
import { tsxLoader } from '../test/processes.js';
import { runExamBench } from './examBench.js';
import { NOOP, QUEUED } from './examMix.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const CANDIDATES = 12;

/** Every kind of call the mix makes. */
const CALLS = [
  NOOP,
  'GET page',
  'GET asset',
  'GET /common/site-config',
  'GET /user/send-msg',
  'POST /user/login',
  'GET /exam/index',
  'GET /exam/show',
  'POST /monitor/start-exam',
  'GET /monitor/state',
  'GET /sts/get-token',
  'PUT /storage',
  'POST /monitor/first-picture',
  'POST /monitor/capture',
  'POST /monitor/check',
  'POST /monitor/start-exam (enter)',
  'GET /monitor/time-table',
  'GET /subject/order-list',
  'GET /subject/show-section',
  'GET /monitor/events',
  'POST /answer/answer',
  'POST /monitor/record-risk',
  'POST /monitor/finish-exam',
];

/** A built page as the build writes it: relative asset addresses, which the server makes absolute. */
function tinyWeb(dir: string): string {
  const web = path.join(dir, 'web');
  fs.mkdirSync(path.join(web, 'assets'), { recursive: true });
  fs.writeFileSync(
    path.join(web, 'index.html'),
    '<!doctype html><html><head><script type="module" crossorigin src="./assets/index-a1.js"></script>' +
      '<link rel="stylesheet" crossorigin href="./assets/index-a1.css"></head><body><div id="root"></div></body></html>',
  );
  fs.writeFileSync(path.join(web, 'assets/index-a1.js'), 'console.log("exam page");\n'.repeat(100));
  fs.writeFileSync(path.join(web, 'assets/index-a1.css'), 'body { margin: 0; }\n');
  return web;
}

describe('bench:exam at a tiny scale', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'examhall-exam-bench-'));
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('makes every call of the mix without an error and ends with the summary line', async () => {
    const web = tinyWeb(tmp);
    const out = path.join(tmp, 'results');
    const lines: string[] = [];

    const summary = await runExamBench(
      {
        candidates: CANDIDATES,
        dialect: 'sqlite',
        loginSpreadS: 1,
        startSpreadS: 0.5,
        examS: 2.5,
        answerEveryS: 0.3,
        syncEveryS: 0.5,
        frameEveryS: 0.8,
        riskEveryS: 0.5,
        sockets: 16,
        noopPerS: 20,
        assets: true,
        outDir: out,
        serverEnv: { WEB_DIST: web },
        launch: { main: path.resolve(here, '../main.ts'), nodeArgs: ['--import', tsxLoader] },
      },
      (line) => lines.push(line),
    );

    const byCall = new Map(summary.calls.map((c) => [c.call, c]));
    for (const call of CALLS) expect(byCall.get(call)?.count ?? 0, call).toBeGreaterThan(0);
    expect(summary.calls.flatMap((c) => c.error_samples)).toEqual([]);
    expect(summary.errors).toBe(0);
    expect(summary.first_question_s.seen).toBe(CANDIDATES);
    // One finish per candidate: every one went through the whole exam.
    expect(byCall.get('POST /monitor/finish-exam')?.count).toBe(CANDIDATES);

    // The table prints the slowest request of each call beside its percentiles: a stall shows there.
    expect(lines.find((l) => l.startsWith('call'))).toMatch(/p99\s+max\s+errors/);
    const last = JSON.parse(lines.at(-1)!) as { candidates: number; errors: number; p99_ms: Record<string, number> };
    expect(last.candidates).toBe(CANDIDATES);
    expect(last.errors).toBe(0);
    expect(Object.keys(last.p99_ms).sort()).toEqual([...CALLS].sort());

    const written = JSON.parse(fs.readFileSync(summary.files.json, 'utf8')) as { candidates: number };
    expect(written.candidates).toBe(CANDIDATES);
    expect(path.dirname(summary.files.html)).toBe(out);
    expect(fs.readFileSync(summary.files.html, 'utf8')).toContain('<svg');
  }, 60_000);
});

describe('bench:exam start wave at a tiny scale', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'examhall-exam-bench-wave-'));
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('checks in before the window opens, then follows the admission queue to the first question, with no error', async () => {
    const candidates = 12;
    const admissionRate = 4;
    const summary = await runExamBench(
      {
        candidates,
        dialect: 'sqlite',
        admissionRate,
        loginSpreadS: 2,
        startSpreadS: 0.2,
        examS: 0.5,
        answerEveryS: 1,
        syncEveryS: 1,
        frameEveryS: 1,
        riskEveryS: 10,
        sockets: 16,
        noopPerS: 5,
        assets: false,
        outDir: path.join(tmp, 'results'),
        serverEnv: { WEB_DIST: tinyWeb(tmp) },
        launch: { main: path.resolve(here, '../main.ts'), nodeArgs: ['--import', tsxLoader] },
      },
      () => undefined,
    );

    expect(summary.calls.flatMap((c) => c.error_samples)).toEqual([]);
    expect(summary.errors).toBe(0);
    const byCall = new Map(summary.calls.map((c) => [c.call, c]));
    // The device checks were done before the opening (the server refuses them earlier than CHECK_IN_MINUTES).
    expect(byCall.get('POST /monitor/check')?.count ?? 0).toBeGreaterThanOrEqual(candidates);
    // Everyone pressed start within 0.2 s; at 4 a second the server queued some, and all entered at their turn.
    expect(byCall.get(QUEUED)?.count ?? 0).toBeGreaterThan(0);
    expect(byCall.get('POST /monitor/start-exam (enter)')?.count).toBe(candidates);
    expect(summary.first_question_s.seen).toBe(candidates);
    // The last of 12 entered about 12 / 4 s after the opening, less the queue's burst: the pace held them.
    expect(summary.first_question_s.max).toBeGreaterThan(1);
    expect(byCall.get('POST /monitor/finish-exam')?.count).toBe(candidates);
  }, 60_000);
});

describe.skipIf(!(await dialectAvailable('postgres')))('bench:exam against a cluster at a tiny scale', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'examhall-exam-bench-cluster-'));
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('spreads the candidates over two API processes, with no error and the pictures in the S3 store', async () => {
    const candidates = 20;
    const lines: string[] = [];
    const summary = await runExamBench(
      {
        candidates,
        dialect: 'postgres',
        apiProcesses: 2,
        loginSpreadS: 2,
        startSpreadS: 1,
        examS: 3,
        answerEveryS: 0.4,
        syncEveryS: 1,
        frameEveryS: 1,
        riskEveryS: 1,
        sockets: 32,
        noopPerS: 20,
        assets: true,
        outDir: path.join(tmp, 'results'),
        serverEnv: { WEB_DIST: tinyWeb(tmp) },
        launch: { main: path.resolve(here, '../main.ts'), nodeArgs: ['--import', tsxLoader] },
      },
      (line) => lines.push(line),
    );

    expect(summary.calls.flatMap((c) => c.error_samples)).toEqual([]);
    expect(summary.errors).toBe(0);
    expect(summary.first_question_s.seen).toBe(candidates);
    const byCall = new Map(summary.calls.map((c) => [c.call, c]));
    expect(byCall.get('POST /monitor/finish-exam')?.count).toBe(candidates);
    // Frames went to the store and were recorded by the processes, which read them back from it.
    expect(byCall.get('PUT /storage')?.count ?? 0).toBeGreaterThanOrEqual(candidates * 3);
    expect(byCall.get('POST /monitor/capture')?.count ?? 0).toBeGreaterThanOrEqual(candidates * 2);
    // The cluster's processes take no upload credentials from a store without STS: pages put with its keys.
    expect(byCall.has('GET /sts/get-token')).toBe(false);

    expect(summary.processes).toHaveLength(2);
    const [a, b] = summary.processes;
    expect(a!.base).not.toBe(b!.base);
    for (const p of summary.processes) {
      // Half the candidates each, every one at least its arrival, entry and finish.
      expect(p.requests).toBeGreaterThan((candidates / 2) * 8);
      expect(p.cpu_s ?? 0).toBeGreaterThan(0);
      expect(p.peak_rss_mb).toBeGreaterThan(0);
    }
    // PostgreSQL, Redis and s3rver each worked during the mix (their CPU is measured apart from the load's).
    expect(Object.keys(summary.parts).sort()).toEqual(['postgres', 'redis', 's3rver']);
    expect(summary.parts.s3rver).toBeGreaterThan(0);
    expect(summary.parts.postgres).toBeGreaterThan(0);
    const last = JSON.parse(lines.at(-1)!) as { errors: number; processes?: unknown[] };
    expect(last.errors).toBe(0);
    expect(last.processes).toHaveLength(2);
  }, 90_000);
});
