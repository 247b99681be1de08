import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RETRY_POLICY, type JudgeData, type JudgeLatestItem, type Verdict } from '@examhall/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { configureClient } from '../api/client.js';
import { en } from '../i18n/en.js';
import { zh } from '../i18n/zh.js';
import {
  browserJudgeDeps,
  casesDone,
  judge,
  JudgeRuns,
  MAX_POLL_FAILURES,
  newestRun,
  progressPercent,
  verdictColor,
  verdictKeys,
  type JudgeDeps,
  type JudgeRequest,
} from './judge.js';

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

const send = (res: ServerResponse, status: number, data: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ status: 'success', msg: '', data }));
};
const fail = (res: ServerResponse, status: number, code: string, msg: string) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ status: 'error', msg, code, data: null }));
};

const REQ: JudgeRequest = { examId: 7, subjectId: 42, language: 'cpp', code: 'int main(){}', mode: 'submit' };
/** The browser's calls, without the half-second waits. */
const deps: JudgeDeps = { ...browserJudgeDeps, sleep: () => Promise.resolve() };

/** A judge job of `total` cases whose status gains one case per poll; the last one ends with `last`. */
function fakeJob(total: number, last: Verdict = 'AC') {
  let polls = 0;
  const view = (): JudgeData => {
    const n = Math.min(polls, total);
    const cases = Array.from({ length: n }, (_, i) => ({
      index: i + 1,
      verdict: (i === total - 1 ? last : 'AC') as Verdict,
      time_ms: 3,
      memory_kb: 1024,
    }));
    const done = n === total;
    return {
      job_id: 'job-1',
      state: done ? 'done' : n === 0 ? 'queued' : 'running',
      verdict: done ? (cases.some((c) => c.verdict !== 'AC') ? last : 'AC') : null,
      cases,
      total,
    };
  };
  return {
    start: view,
    poll: () => {
      polls++;
      return view();
    },
  };
}

/** A judge-latest entry: the job as it stands and how it was started. */
const latestItem = (data: JudgeData, started_at: number, more: Partial<JudgeLatestItem> = {}): JudgeLatestItem => ({
  ...data,
  language: 'cpp',
  input: null,
  started_at,
  ...more,
});
const finished = (job_id: string, verdict: Verdict): JudgeData => ({
  job_id,
  state: 'done',
  verdict,
  cases: [{ index: 1, verdict, time_ms: 2, memory_kb: 900 }],
  total: 1,
});

describe('judging over HTTP', () => {
  let server: Server;
  let handler: Handler;
  let hits: { method: string; path: string; query: URLSearchParams; body: string }[];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const url = new URL(req.url ?? '/', 'http://h');
        hits.push({ method: req.method ?? '', path: url.pathname, query: url.searchParams, body });
        handler(req, res, body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  beforeEach(() => {
    hits = [];
    const { port } = server.address() as AddressInfo;
    configureClient({
      baseUrl: `http://127.0.0.1:${port}/api`,
      getAuth: () => 'token-1',
      getReferer: () => null,
      log: () => undefined,
      sleep: () => Promise.resolve(),
    });
  });

  it('starts the job, then polls it until done, reporting each case as it finishes', async () => {
    const job = fakeJob(3);
    handler = (req, res) => send(res, 200, req.method === 'POST' ? job.start() : job.poll());
    const seen: string[] = [];
    const data = await judge(REQ, (d) => seen.push(`${d.state} ${casesDone(d)}/${d.total}`), deps);

    expect(data.verdict).toBe('AC');
    expect(seen).toEqual(['queued 0/3', 'running 1/3', 'running 2/3', 'done 3/3']);
    expect(hits[0]!.path).toBe('/api/answer/judge');
    const body = JSON.parse(hits[0]!.body) as Record<string, unknown>;
    expect(body).toMatchObject({ exam_id: 7, subject_id: 42, language: 'cpp', mode: 'submit' });
    expect(body).not.toHaveProperty('input');
    expect(body.client_id).toMatch(/^[0-9a-f-]{36}$/);
    for (const h of hits.slice(1)) {
      expect(h.path).toBe('/api/answer/judge-status');
      expect(h.query.get('job_id')).toBe('job-1');
      expect(h.query.get('exam_id')).toBe('7');
    }
    expect(hits).toHaveLength(4);
  });

  it('sends a custom input with a run', async () => {
    const job = fakeJob(1);
    handler = (req, res) => send(res, 200, req.method === 'POST' ? job.start() : job.poll());
    await judge({ ...REQ, mode: 'run', input: 'level\n' }, () => undefined, deps);
    expect(JSON.parse(hits[0]!.body)).toMatchObject({ mode: 'run', input: 'level\n' });
  });

  it('retries a start that hit a server fault with the same client id, so the server answers one job', async () => {
    const job = fakeJob(1);
    let posts = 0;
    handler = (req, res) => {
      if (req.method === 'POST' && ++posts === 1) return fail(res, 500, 'internal_error', 'boom');
      send(res, 200, req.method === 'POST' ? job.start() : job.poll());
    };
    await judge(REQ, () => undefined, deps);
    const starts = hits.filter((h) => h.method === 'POST').map((h) => JSON.parse(h.body) as { client_id: string });
    expect(starts).toHaveLength(2);
    expect(starts[1]!.client_id).toBe(starts[0]!.client_id);
  });

  it('does not retry a refusal and keeps the server message, such as a missing toolchain', async () => {
    handler = (_req, res) => fail(res, 503, 'language_unavailable', 'java: toolchain not installed on this host');
    await expect(judge({ ...REQ, language: 'java' }, () => undefined, deps)).rejects.toMatchObject({
      code: 'language_unavailable',
      status: 503,
      msg: 'java: toolchain not installed on this host',
    });
    expect(hits).toHaveLength(1);
  });

  it('waits out a few failing status calls, but stops at a refusal', async () => {
    const job = fakeJob(2);
    let gets = 0;
    handler = (req, res) => {
      if (req.method === 'POST') return send(res, 200, job.start());
      // Three of four requests fail: each status call fails once, after the client's own retries, then one succeeds.
      if (++gets % 4 !== 0) return fail(res, 502, 'http_error', 'bad gateway');
      send(res, 200, job.poll());
    };
    await expect(judge(REQ, () => undefined, deps)).resolves.toMatchObject({ state: 'done' });

    hits = [];
    handler = (req, res) =>
      req.method === 'POST' ? send(res, 200, fakeJob(2).start()) : fail(res, 404, 'not_found', 'no such run');
    await expect(judge(REQ, () => undefined, deps)).rejects.toMatchObject({ code: 'not_found' });
    expect(hits.filter((h) => h.method === 'GET')).toHaveLength(1);
  });

  it(`gives up after ${MAX_POLL_FAILURES} failing status calls in a row`, async () => {
    handler = (req, res) =>
      req.method === 'POST' ? send(res, 200, fakeJob(2).start()) : fail(res, 500, 'internal_error', 'down');
    await expect(judge(REQ, () => undefined, deps)).rejects.toMatchObject({ code: 'internal_error' });
    // Each failing status call is the client's first try and its retries.
    expect(hits.filter((h) => h.method === 'GET')).toHaveLength(MAX_POLL_FAILURES * (1 + RETRY_POLICY.retries));
  });

  it('keeps each question’s last run: saving first, then judging, then done; one job at a time', async () => {
    const job = fakeJob(2, 'WA');
    handler = (req, res) => send(res, 200, req.method === 'POST' ? job.start() : job.poll());
    const runs = new JudgeRuns(deps);
    const phases: string[] = [];
    runs.subscribe(() => {
      const r = runs.get(7, 42)!;
      const last = phases.at(-1);
      if (last !== r.phase) phases.push(r.phase);
    });
    let saved = false;
    const save = async () => {
      expect(hits).toHaveLength(0);
      saved = true;
    };
    const first = runs.start(REQ, save);
    expect(runs.busy(7, 42)).toBe(true);
    // A second start while the first runs answers the running one and starts nothing.
    await runs.start(REQ, save);
    const done = await first;
    expect(saved).toBe(true);
    expect(phases).toEqual(['saving', 'judging', 'done']);
    expect(done).toMatchObject({ mode: 'submit', input: null, language: 'cpp', phase: 'done', error: null });
    expect(done.data?.verdict).toBe('WA');
    expect(hits.filter((h) => h.method === 'POST')).toHaveLength(1);
    expect(runs.get(7, 42)).toBe(done);
    expect(runs.get(7, 43)).toBeUndefined();
    expect(runs.busy(7, 42)).toBe(false);
  });

  it('forgets every outcome on clear, also of a job still running then', async () => {
    const job = fakeJob(2);
    handler = (req, res) => send(res, 200, req.method === 'POST' ? job.start() : job.poll());
    const runs = new JudgeRuns(deps);
    await runs.start(REQ, () => Promise.resolve());
    expect(runs.get(7, 42)?.phase).toBe('done');
    const running = runs.start({ ...REQ, subjectId: 43 }, () => Promise.resolve());
    runs.clear();
    await running;
    expect(runs.get(7, 42)).toBeUndefined();
    expect(runs.get(7, 43)).toBeUndefined();
  });

  it('keeps a failure with its code, so the page can leave a finished exam', async () => {
    handler = (_req, res) => fail(res, 409, 'exam_finished', 'the exam has finished');
    const runs = new JudgeRuns(deps);
    const r = await runs.start({ ...REQ, mode: 'run', input: '1 2' }, () => Promise.resolve());
    expect(r).toMatchObject({
      phase: 'failed',
      input: '1 2',
      error: { code: 'exam_finished', msg: 'the exam has finished' },
    });
  });

  describe('after a reload', () => {
    const isLatest = (req: IncomingMessage) => req.url?.startsWith('/api/answer/judge-latest?') ?? false;
    const latestHits = () => hits.filter((h) => h.path === '/api/answer/judge-latest');

    it('shows the newer of the last run and submit, labelled as they were started', async () => {
      handler = (_req, res) =>
        send(res, 200, {
          run: latestItem(finished('run-1', 'AC'), 1000, { language: 'python', input: '1 2\n' }),
          submit: latestItem(finished('sub-1', 'WA'), 2000),
        });
      const runs = new JudgeRuns(deps);
      await runs.restore(7, 42);
      expect(latestHits()).toHaveLength(1);
      expect(latestHits()[0]!.query.get('exam_id')).toBe('7');
      expect(latestHits()[0]!.query.get('subject_id')).toBe('42');
      const shown = runs.get(7, 42)!;
      expect(shown).toMatchObject({ mode: 'submit', input: null, language: 'cpp', phase: 'done', error: null });
      // The page gets the job as judge-status answers it, without the labels.
      expect(shown.data).toEqual(finished('sub-1', 'WA'));

      handler = (_req, res) =>
        send(res, 200, {
          run: latestItem(finished('run-2', 'AC'), 3000, { language: 'python', input: '1 2\n' }),
          submit: latestItem(finished('sub-1', 'WA'), 2000),
        });
      await runs.restore(7, 43);
      expect(runs.get(7, 43)).toMatchObject({ mode: 'run', input: '1 2\n', language: 'python', phase: 'done' });
      expect(runs.get(7, 43)!.data?.job_id).toBe('run-2');
      // A question shown already is not loaded again.
      await runs.restore(7, 42);
      expect(latestHits()).toHaveLength(2);
    });

    it('follows a job that is still being judged until it is done', async () => {
      const job = fakeJob(3, 'WA');
      // The job has judged one case when the page loads it.
      job.poll();
      handler = (req, res) =>
        isLatest(req)
          ? send(res, 200, { run: null, submit: latestItem(job.start(), 1000) })
          : send(res, 200, job.poll());
      const runs = new JudgeRuns(deps);
      const seen: string[] = [];
      runs.subscribe(() => {
        const r = runs.get(7, 42)!;
        seen.push(`${r.phase} ${casesDone(r.data!)}/3`);
      });
      await runs.restore(7, 42);
      expect(seen).toEqual(['judging 1/3', 'judging 2/3', 'judging 3/3', 'done 3/3']);
      expect(runs.get(7, 42)).toMatchObject({ mode: 'submit', phase: 'done', data: { verdict: 'WA' } });
      const polls = hits.filter((h) => h.path === '/api/answer/judge-status');
      expect(polls).toHaveLength(2);
      for (const p of polls) expect(p.query.get('job_id')).toBe('job-1');
    });

    it('leaves a run the candidate started alone, also one started while the load was on its way', async () => {
      const job = fakeJob(1);
      let answerLatest: (() => void) | undefined;
      handler = (req, res) => {
        if (isLatest(req)) {
          answerLatest = () =>
            send(res, 200, { run: latestItem(finished('old', 'WA'), 1000, { input: '1 2\n' }), submit: null });
          return;
        }
        send(res, 200, req.method === 'POST' ? job.start() : job.poll());
      };
      const runs = new JudgeRuns(deps);
      await runs.start({ ...REQ, subjectId: 43 }, () => Promise.resolve());
      await runs.restore(7, 43);
      expect(latestHits()).toHaveLength(0);

      const restoring = runs.restore(7, 42);
      await expect.poll(() => answerLatest).toBeDefined();
      const started = await runs.start(REQ, () => Promise.resolve());
      answerLatest!();
      await restoring;
      expect(runs.get(7, 42)).toBe(started);
      expect(started.data?.job_id).toBe('job-1');
    });

    it('shows nothing when the load fails, and tries again on the next visit', async () => {
      handler = (_req, res) => fail(res, 500, 'internal_error', 'down');
      const runs = new JudgeRuns(deps);
      await expect(runs.restore(7, 42)).resolves.toBeUndefined();
      expect(runs.get(7, 42)).toBeUndefined();
      handler = (_req, res) => send(res, 200, { run: null, submit: null });
      await runs.restore(7, 42);
      expect(runs.get(7, 42)).toBeUndefined();
      handler = (_req, res) => send(res, 200, { run: latestItem(finished('r', 'AC'), 5), submit: null });
      await runs.restore(7, 42);
      expect(runs.get(7, 42)).toMatchObject({ mode: 'run', input: null, phase: 'done' });
    });

    it('drops what arrives after clear(): a load on its way and a job being followed', async () => {
      let answerLatest: (() => void) | undefined;
      handler = (_req, res) => {
        answerLatest = () => send(res, 200, { run: latestItem(finished('r', 'AC'), 5), submit: null });
      };
      const runs = new JudgeRuns(deps);
      const loading = runs.restore(7, 42);
      await expect.poll(() => answerLatest).toBeDefined();
      runs.clear();
      answerLatest!();
      await loading;
      expect(runs.get(7, 42)).toBeUndefined();

      // A job still running: its later states belong to the candidate who left.
      const job = fakeJob(2);
      let polled: (() => void) | undefined;
      handler = (req, res) => {
        if (isLatest(req)) return send(res, 200, { run: null, submit: latestItem(job.start(), 5) });
        polled = () => send(res, 200, job.poll());
      };
      const following = runs.restore(7, 42);
      await expect.poll(() => polled).toBeDefined();
      expect(runs.get(7, 42)?.phase).toBe('judging');
      runs.clear();
      polled!();
      polled = undefined;
      // Every later poll answers at once, so the follow ends.
      handler = (_req, res) => send(res, 200, job.poll());
      await following;
      expect(runs.get(7, 42)).toBeUndefined();
    });
  });
});

describe('the newest of a run and a submit', () => {
  it('takes the one started later, the submit on a tie, and nothing when there is neither', () => {
    const run = latestItem(finished('r', 'AC'), 10);
    const submit = latestItem(finished('s', 'WA'), 10);
    expect(newestRun({ run, submit })?.mode).toBe('submit');
    expect(newestRun({ run: { ...run, started_at: 11 }, submit })?.mode).toBe('run');
    expect(newestRun({ run, submit: null })?.data?.job_id).toBe('r');
    expect(newestRun({ run: null, submit })?.data?.job_id).toBe('s');
    expect(newestRun({ run: null, submit: null })).toBeNull();
  });
});

describe('verdicts and progress', () => {
  const ALL: Verdict[] = ['AC', 'WA', 'TLE', 'MLE', 'OLE', 'RE', 'CE', 'SE'];

  it('names and explains every verdict in both languages', () => {
    for (const v of ALL) {
      for (const custom of [false, true]) {
        const { name, help } = verdictKeys(v, custom);
        for (const dict of [zh, en]) {
          expect(dict[name]).toBeTruthy();
          expect(dict[help]).toBeTruthy();
        }
      }
    }
    expect(zh[verdictKeys('AC', false).name]).toBe('通过');
    expect(en[verdictKeys('TLE', false).name]).toBe('Time limit exceeded');
    expect(zh[verdictKeys('CE', false).name]).toBe('编译错误');
    // A custom input has no expected output: its AC says the program ran, not that it is right.
    expect(en[verdictKeys('AC', true).name]).toBe('Finished');
    expect(verdictKeys('WA', true)).toEqual(verdictKeys('WA', false));
  });

  it('colors passes green, wrong answers red and limits orange', () => {
    expect(verdictColor('AC')).toBe('green');
    expect(verdictColor('WA')).toBe('red');
    for (const v of ['TLE', 'MLE', 'OLE'] as const) expect(verdictColor(v)).toBe('orange');
    expect(new Set(ALL.map(verdictColor)).size).toBe(6);
  });

  it('counts cases done once each and reaches 100 % only when the job is done', () => {
    const c = (index: number) => ({ index, verdict: 'AC' as const, time_ms: 1, memory_kb: 1 });
    const base: JudgeData = { job_id: 'j', state: 'running', verdict: null, cases: [], total: 4 };
    expect(progressPercent(base)).toBe(0);
    expect(progressPercent({ ...base, cases: [c(1), c(2), c(2)] })).toBe(50);
    expect(casesDone({ ...base, cases: [c(1), c(2), c(2)] })).toBe(2);
    expect(progressPercent({ ...base, total: 0 })).toBe(0);
    expect(progressPercent({ ...base, state: 'done', verdict: 'CE' })).toBe(100);
  });
});
