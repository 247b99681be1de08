import { randomUUID } from 'node:crypto';
import { QuestionType } from '@examhall/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JUDGE_RATE } from '../services/judging.js';
import { body, createTestApp, type TestApp } from '../test/app.js';
import { testedDialects } from '../test/db.js';
import { enterExam } from '../test/checks.js';
import { codingCandidate, PY_SUM } from '../test/programs.js';

const CPP_SUM = '#include <iostream>\nint main(){long long a,b;std::cin>>a>>b;std::cout<<a+b<<"\\n";}\n';
const PY_WRONG = 'a, b = map(int, input().split())\nprint(a - b)\n';
/** The demo's hidden cases: none of these may reach a browser. */
const HIDDEN = ['3 4', '-5 5', '1000000000 1000000000', '2000000000'];

describe.each(await testedDialects())('running and submitting code on %s', (dialect) => {
  let t: TestApp;
  let token: string;
  let examId: number;
  let prog: number;
  let progQa: number;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const entered = await codingCandidate(t);
    ({ examId, token } = entered);
    prog = entered.order.find((q) => q.type === QuestionType.programming)!.id;
    progQa = entered.order.find((q) => q.type === QuestionType.programmingQa)!.id;
  });
  afterAll(async () => t.close());

  const judge = (payload: object, tok = token) =>
    t.app.inject({
      method: 'POST',
      url: `/api/answer/judge?auth=${tok}`,
      payload: { exam_id: examId, client_id: randomUUID(), ...payload },
    });

  /** Polls until the job is done and returns every answer seen on the way. */
  async function follow(jobId: string, tok = token) {
    const seen: string[] = [];
    for (let i = 0; i < 600; i++) {
      const res = await t.app.inject(`/api/answer/judge-status?exam_id=${examId}&job_id=${jobId}&auth=${tok}`);
      seen.push(res.body);
      const data = body<{
        state: string;
        verdict: string | null;
        cases: { verdict: string; output?: string; time_ms: number; memory_kb: number }[];
      }>(res).data;
      if (data.state === 'done') return { data, seen };
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('judge did not finish');
  }

  it('runs C++ and Python on the samples and shows the outputs', async () => {
    for (const [language, code] of [
      ['cpp', CPP_SUM],
      ['python', PY_SUM],
    ] as const) {
      const res = await judge({ subject_id: prog, language, code, mode: 'run' });
      expect(res.statusCode).toBe(200);
      const { data } = await follow(body<{ job_id: string }>(res).data.job_id);
      expect(data.verdict).toBe('AC');
      expect(data.cases).toHaveLength(1);
      expect(data.cases[0]).toMatchObject({ verdict: 'AC', output: '3\n' });
      expect(data.cases[0]!.memory_kb).toBeGreaterThan(0);
    }
  });

  it('runs on custom input, also for programming Q&A, which cannot be submitted', async () => {
    const res = await judge({
      subject_id: progQa,
      language: 'python',
      code: 'print(input()[::-1])',
      mode: 'run',
      input: 'level\n',
    });
    const { data } = await follow(body<{ job_id: string }>(res).data.job_id);
    expect(data.cases[0]).toMatchObject({ verdict: 'AC', output: 'level\n' });
    const refused = await judge({ subject_id: progQa, language: 'python', code: 'print(1)', mode: 'submit' });
    expect(refused.statusCode).toBe(422);
  });

  it('submits against the hidden cases without ever showing them, and tells WA per case', async () => {
    const good = await follow(
      body<{ job_id: string }>(await judge({ subject_id: prog, language: 'python', code: PY_SUM, mode: 'submit' })).data
        .job_id,
    );
    expect(good.data.verdict).toBe('AC');
    expect(good.data.cases.map((c) => c.verdict)).toEqual(['AC', 'AC', 'AC']);
    const bad = await follow(
      body<{ job_id: string }>(await judge({ subject_id: prog, language: 'python', code: PY_WRONG, mode: 'submit' }))
        .data.job_id,
    );
    expect(bad.data.verdict).toBe('WA');
    for (const text of [...good.seen, ...bad.seen]) {
      for (const secret of HIDDEN) expect(text).not.toContain(secret);
      expect(text).not.toContain('"output"');
    }
  });

  it('answers a retried start with the same job, and keeps other candidates out of the job', async () => {
    const client_id = randomUUID();
    const first = body<{ job_id: string }>(
      await judge({ subject_id: prog, language: 'python', code: PY_SUM, mode: 'run', client_id }),
    ).data;
    const again = body<{ job_id: string }>(
      await judge({ subject_id: prog, language: 'python', code: PY_SUM, mode: 'run', client_id }),
    ).data;
    expect(again.job_id).toBe(first.job_id);
    await t.invite(examId, '13700137000');
    const other = await t.loginCandidate('13700137000');
    const res = await t.app.inject(`/api/answer/judge-status?exam_id=${examId}&job_id=${first.job_id}&auth=${other}`);
    expect(res.statusCode).toBe(404);
    await follow(first.job_id);
  });

  it("answers the newest run and submit of the candidate's own attempt, so a reload keeps them", async () => {
    const latestOf = (subject: number, tok = token) =>
      t.app.inject(`/api/answer/judge-latest?exam_id=${examId}&subject_id=${subject}&auth=${tok}`);
    type Latest = { run: Record<string, unknown> | null; submit: Record<string, unknown> | null };
    const runStarted = t.now();
    const run = await follow(
      body<{ job_id: string }>(await judge({ subject_id: prog, language: 'cpp', code: CPP_SUM, mode: 'run' })).data
        .job_id,
    );
    t.advance(1000);
    const submit = await follow(
      body<{ job_id: string }>(await judge({ subject_id: prog, language: 'python', code: PY_WRONG, mode: 'submit' }))
        .data.job_id,
    );
    const res = await latestOf(prog);
    expect(res.statusCode).toBe(200);
    const latest = body<Latest>(res).data;
    // Each says how it was started, so a reloaded page can label it and tell which is newer.
    expect(latest.run).toEqual({ ...run.data, language: 'cpp', input: null, started_at: runStarted });
    expect(latest.submit).toEqual({
      ...submit.data,
      language: 'python',
      input: null,
      started_at: runStarted + 1000,
    });
    expect(submit.data.verdict).toBe('WA');
    for (const secret of HIDDEN) expect(JSON.stringify(latest.submit)).not.toContain(secret);
    expect(JSON.stringify(latest.submit)).not.toContain('"output"');

    // A run on the candidate's own input is the newest run as soon as it is started, with that input.
    t.advance(1000);
    const custom = body<{ job_id: string }>(
      await judge({ subject_id: prog, language: 'python', code: PY_SUM, mode: 'run', input: '20 22\n' }),
    ).data.job_id;
    expect(body<Latest>(await latestOf(prog)).data.run).toMatchObject({
      job_id: custom,
      language: 'python',
      input: '20 22\n',
      started_at: runStarted + 2000,
    });
    const customDone = await follow(custom);
    const afterCustom = body<Latest>(await latestOf(prog)).data;
    expect(afterCustom.run).toEqual({
      ...customDone.data,
      language: 'python',
      input: '20 22\n',
      started_at: runStarted + 2000,
    });
    expect(customDone.data.cases[0]).toMatchObject({ verdict: 'AC', output: '42\n' });
    // The submit is still the newest submit: runs and submits are kept apart.
    expect(afterCustom.submit).toEqual(latest.submit);

    // Another invited candidate, with no attempt yet, gets their own nothing, not this one's runs.
    await t.invite(examId, '13500135000');
    const other = await t.loginCandidate('13500135000');
    expect(body(await latestOf(prog, other)).data).toEqual({ run: null, submit: null });

    const missing = await latestOf(999_999);
    expect(missing.statusCode).toBe(404);
    expect(body(missing).msg).toBe('no such programming question in this exam');
    const notProgramming = body<{ subject_order: { id: number; type: number }[] }>(
      await t.app.inject(`/api/subject/order-list?exam_id=${examId}&auth=${token}`),
    ).data.subject_order.find((q) => q.type !== QuestionType.programming && q.type !== QuestionType.programmingQa)!.id;
    expect((await latestOf(notProgramming)).statusCode).toBe(404);
  });

  it('says clearly when a language has no toolchain here, and refuses languages the question does not offer', async () => {
    await t.db.handle.db
      .updateTable('questions')
      .set({ content: (eb) => eb.fn('replace', ['content', eb.val('"rust"]'), eb.val('"rust","julia"]')]) })
      .where('id', '=', prog)
      .execute();
    // Versions are frozen, so the catalog never rereads one by itself: forget it after this edit in place.
    t.services.catalog.forgetVersions();
    const julia = await judge({ subject_id: prog, language: 'julia', code: 'println(1)', mode: 'run' });
    expect(julia.statusCode).toBe(503);
    expect(body(julia)).toMatchObject({
      code: 'language_unavailable',
      msg: expect.stringContaining('toolchain not installed'),
    });
    const ruby = await judge({ subject_id: prog, language: 'ruby', code: 'puts 1', mode: 'run' });
    expect(body(ruby).msg).toBe('language: not offered by this question');
  });

  it('limits submits per candidate', async () => {
    await t.invite(examId, '13600136000');
    const other = await t.loginCandidate('13600136000');
    const anid = body<{ list: { anid: number }[] }>(await t.app.inject(`/api/exam/index?auth=${other}`)).data.list[0]!
      .anid;
    await enterExam(t, other, examId, anid);
    const codes: number[] = [];
    for (let i = 0; i <= JUDGE_RATE.submits; i++)
      codes.push(
        (await judge({ subject_id: prog, language: 'python', code: PY_SUM, mode: 'submit' }, other)).statusCode,
      );
    expect(codes.slice(0, JUDGE_RATE.submits).every((c) => c === 200)).toBe(true);
    expect(codes.at(-1)).toBe(429);
  });
});
