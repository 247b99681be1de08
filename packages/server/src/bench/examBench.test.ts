/**
 * bench:exam at a tiny scale against a real server process (run from the sources): every call of the mix is made,
 * none fails, every candidate reaches a question, the last printed line is the summary JSON, and the JSON and
 * chart files are written. No timings are asserted: the figures are the bench's business.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { tsxLoader } from '../test/processes.js';
import { runExamBench } from './examBench.js';
import { NOOP } from './examMix.js';

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

describe('bench:exam at a tiny scale', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'examhall-exam-bench-'));
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('makes every call of the mix without an error and ends with the summary line', async () => {
    // A built page as the build writes it: relative asset addresses, which the server makes absolute.
    const web = path.join(tmp, 'web');
    fs.mkdirSync(path.join(web, 'assets'), { recursive: true });
    fs.writeFileSync(
      path.join(web, 'index.html'),
      '<!doctype html><html><head><script type="module" crossorigin src="./assets/index-a1.js"></script>' +
        '<link rel="stylesheet" crossorigin href="./assets/index-a1.css"></head><body><div id="root"></div></body></html>',
    );
    fs.writeFileSync(path.join(web, 'assets/index-a1.js'), 'console.log("exam page");\n'.repeat(100));
    fs.writeFileSync(path.join(web, 'assets/index-a1.css'), 'body { margin: 0; }\n');
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
