/**
 * Code similarity over HTTP on both dialects: candidates' final code for the programming question compared by
 * the `code_similarity` job, the ranked pairs and groups, one pair side by side with its fragments, a grader's
 * decision (kept when the pairs are computed again), and clear refusals of bad input.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import {
  api,
  type JobStartedData,
  type SimilarityPairDetail,
  type SimilarityPairsData,
  type SimilarityPairView,
  type SimilarityQuestionsData,
} from '@examhall/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { testedDialects } from '../test/db.js';
import { adminApp, enterAsNew } from '../test/examScenario.js';
import { waitForJob } from '../test/jobs.js';
import { fingerprint, fragments } from '../similarity/index.js';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'similarity', 'fixtures', 'python');
const sample = (file: string) => fs.readFileSync(path.join(FIXTURES, file), 'utf8');

describe.each(await testedDialects())('code similarity on %s', (dialect) => {
  const s = adminApp(dialect);
  const { call, ok } = s;
  let grader: string;
  let questionId: number;
  /** Attempt ids by the sample each candidate answered with. */
  const attempts: Record<string, number> = {};

  /** Each candidate's token by their attempt. */
  const tokens = new Map<number, string>();

  /** A new candidate who enters the exam and answers the programming question with `code`. */
  async function candidateAnswers(code: string): Promise<number> {
    const { token } = await enterAsNew(s.t, s.examId, { phonePrefix: '1390077' });
    await saveCode(token, code, 1);
    const row = await s.t.db.handle.db
      .selectFrom('answers')
      .select('attempt_id')
      .where('question_id', '=', questionId)
      .orderBy('attempt_id', 'desc')
      .executeTakeFirstOrThrow();
    tokens.set(row.attempt_id, token);
    return row.attempt_id;
  }

  /** A candidate's save of the programming question's code. */
  async function saveCode(token: string, code: string, seq: number): Promise<void> {
    const saved = await s.t.app.inject({
      method: 'POST',
      url: `/api/answer/answer?auth=${token}`,
      payload: {
        exam_id: s.examId,
        subject_id: questionId,
        answer: { kind: 'code', language: 'python', code },
        client_id: randomUUID(),
        seq,
        changed_at: s.t.now(),
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
  }

  async function compute(): Promise<void> {
    const { job_id } = await ok<JobStartedData>(
      api.similarityRun,
      { exam_id: s.examId, question_id: questionId },
      grader,
    );
    const job = await waitForJob(s.t, grader, job_id);
    expect(job, JSON.stringify(job.error)).toMatchObject({ state: 'done', kind: 'code_similarity' });
  }

  const pairOf = (list: SimilarityPairView[], a: string, b: string) =>
    list.find(
      (p) =>
        (p.a.attempt_id === attempts[a] && p.b.attempt_id === attempts[b]) ||
        (p.a.attempt_id === attempts[b] && p.b.attempt_id === attempts[a]),
    );

  /** The id of the exam's question of `kind`. */
  const questionOf = async (kind: string) =>
    (
      await s.t.db.handle.db
        .selectFrom('questions')
        .select('id')
        .where('exam_id', '=', s.examId)
        .where('kind', '=', kind)
        .executeTakeFirstOrThrow()
    ).id;

  beforeAll(async () => {
    grader = await s.t.loginStaff('grader', { examId: s.examId });
    const questions = await ok<SimilarityQuestionsData>(api.similarityQuestions, { exam_id: s.examId }, grader);
    questionId = await questionOf('programming');
    expect(questions.list.map((q) => q.question_id)).toContain(questionId);
    for (const file of ['original.py', 'copied.py', 'independent.py', 'same_idea.py']) {
      attempts[file] = await candidateAnswers(sample(file));
    }
  });

  it('ranks the disguised copy first and leaves independent work out of the list', async () => {
    await compute();
    const data = await ok<SimilarityPairsData>(
      api.similarityPairs,
      { exam_id: s.examId, question_id: questionId },
      grader,
    );
    expect(data.run).toMatchObject({ submissions: 4, groups: [] });
    const top = data.list[0]!;
    expect(pairOf([top], 'original.py', 'copied.py')).toBeDefined();
    expect(top).toMatchObject({ language: 'python', status: 'open', decided_by: '', decided_at: null });
    expect(top.score).toBeGreaterThanOrEqual(0.8);
    expect(top.a.attempt_id).toBeLessThan(top.b.attempt_id);
    expect(top.a.phone).toMatch(/^\d{3}\*{4}\d{4}$/);
    expect(pairOf(data.list, 'original.py', 'independent.py')).toBeUndefined();
    expect(data.list.every((p) => p.score >= 0.3)).toBe(true);
    expect(data.total).toBe(data.list.length);
    const questions = await ok<SimilarityQuestionsData>(api.similarityQuestions, { exam_id: s.examId }, grader);
    expect(questions.list.find((q) => q.question_id === questionId)).toMatchObject({
      submissions: 4,
      computed_at: expect.any(Number),
    });
  });

  it('shows one pair side by side with the matched fragments on both sides', async () => {
    const data = await ok<SimilarityPairsData>(
      api.similarityPairs,
      { exam_id: s.examId, question_id: questionId },
      grader,
    );
    const top = data.list[0]!;
    const detail = await ok<SimilarityPairDetail>(api.similarityPair, { exam_id: s.examId, pair_id: top.id }, grader);
    expect([detail.code_a, detail.code_b].sort()).toEqual([sample('original.py'), sample('copied.py')].sort());
    expect(detail.fragments.length).toBeGreaterThan(2);
    const linesA = detail.code_a.split('\n').length;
    const linesB = detail.code_b.split('\n').length;
    for (const f of detail.fragments) {
      expect(f.a.start_line).toBeLessThanOrEqual(f.a.end_line);
      expect(f.a.end_line).toBeLessThanOrEqual(linesA);
      expect(f.b.end_line).toBeLessThanOrEqual(linesB);
      expect(f.tokens).toBeGreaterThanOrEqual(10);
    }
    // The run kept how many submissions hold each shared fingerprint; the view lists the fragments by it.
    const run = await s.t.db.handle.db
      .selectFrom('similarity_runs')
      .selectAll()
      .where('question_id', '=', questionId)
      .executeTakeFirstOrThrow();
    const rarity = (JSON.parse(run.rarity) as Record<string, { n: number; holders: [number, number][] }>).python!;
    expect(rarity.n).toBe(run.submissions);
    expect(rarity.holders.length).toBeGreaterThan(0);
    for (const [, count] of rarity.holders) expect(count).toBeGreaterThanOrEqual(2);
    const [fa, fb] = [detail.code_a, detail.code_b].map((code) => fingerprint(code, 'python', new Set()));
    expect(detail.fragments).toEqual(fragments(fa!, fb!, new Map(rarity.holders)));
  });

  it('records a decision, filters by it, keeps it when computed again, and finds a group of three', async () => {
    const list = (q: Record<string, unknown> = {}) =>
      ok<SimilarityPairsData>(api.similarityPairs, { exam_id: s.examId, question_id: questionId, ...q }, grader);
    const top = (await list()).list[0]!;
    const decided = await ok<SimilarityPairView>(
      api.similarityDecide,
      { exam_id: s.examId, pair_id: top.id, status: 'confirmed', note: 'same structure, renamed' },
      grader,
    );
    expect(decided).toMatchObject({ status: 'confirmed', note: 'same structure, renamed', decided_by: 'grader' });
    expect((await list({ status: 'confirmed' })).list.map((p) => p.id)).toEqual([top.id]);
    expect((await list({ status: 'dismissed' })).total).toBe(0);

    attempts['again.py'] = await candidateAnswers(sample('original.py').replace(/\bgrid\b/g, 'board'));
    await compute();
    const after = await list();
    expect(after.list.find((p) => p.id === top.id)).toMatchObject({ status: 'confirmed' });
    expect(after.run?.groups).toHaveLength(1);
    expect(after.run!.groups[0]!.members.map((m) => m.attempt_id).sort((x, y) => x - y)).toEqual(
      [attempts['original.py']!, attempts['copied.py']!, attempts['again.py']!].sort((x, y) => x - y),
    );
    const paged = await list({ page: 2, page_size: 1 });
    expect(paged.list).toHaveLength(1);
    expect(paged.list[0]!.id).toBe(after.list[1]!.id);

    const reopened = await ok<SimilarityPairView>(
      api.similarityDecide,
      { exam_id: s.examId, pair_id: top.id, status: 'open' },
      grader,
    );
    expect(reopened).toMatchObject({ status: 'open', decided_by: '', decided_at: null });
  });

  it('forgets an open pair that is no longer alike when computed again, and keeps every other pair', async () => {
    const list = async () =>
      (
        await ok<SimilarityPairsData>(
          api.similarityPairs,
          { exam_id: s.examId, question_id: questionId, page_size: 100 },
          grader,
        )
      ).list;
    attempts['changed.py'] = await candidateAnswers(sample('original.py'));
    await compute();
    const before = await list();
    expect(pairOf(before, 'original.py', 'changed.py')).toBeDefined();

    await saveCode(tokens.get(attempts['changed.py']!)!, sample('independent.py'), 2);
    await compute();
    const after = await list();
    expect(pairOf(after, 'original.py', 'changed.py')).toBeUndefined();
    const others = (l: SimilarityPairView[]) =>
      l
        .filter((p) => p.a.attempt_id !== attempts['changed.py'] && p.b.attempt_id !== attempts['changed.py'])
        .map((p) => p.id)
        .sort((x, y) => x - y);
    expect(others(after)).toEqual(others(before));
  });

  it('refuses bad input with stable codes, and a pair or question of another exam with 404', async () => {
    const top = (
      await ok<SimilarityPairsData>(api.similarityPairs, { exam_id: s.examId, question_id: questionId }, grader)
    ).list[0]!;
    const bad = await call(api.similarityDecide, { exam_id: s.examId, pair_id: top.id, status: 'guilty' }, grader);
    expect([bad.http, bad.code]).toEqual([422, 'validation_error']);
    const score = await call(api.similarityPairs, { exam_id: s.examId, question_id: questionId, min_score: 2 }, grader);
    expect([score.http, score.code]).toEqual([422, 'validation_error']);
    const notCode = await call(
      api.similarityRun,
      { exam_id: s.examId, question_id: await questionOf('single') },
      grader,
    );
    expect([notCode.http, notCode.code]).toEqual([404, 'not_found']);
    const otherExam = (await ok<{ exam_id: number }>(api.examEditorCreate, { name: 'Another exam' })).exam_id;
    const foreign = await call(api.similarityPair, { exam_id: otherExam, pair_id: top.id });
    expect([foreign.http, foreign.code]).toEqual([404, 'not_found']);
    const missing = await call(api.similarityDecide, { exam_id: s.examId, pair_id: 999_999, status: 'dismissed' });
    expect([missing.http, missing.code]).toEqual([404, 'not_found']);
  });

  it('answers the pair view of three 96 KB answers of one repeated line while the server keeps answering others', async () => {
    const repeated = 'x = 1\n'.repeat(16_000);
    const big = [await candidateAnswers(repeated), await candidateAnswers(repeated), await candidateAnswers(repeated)];
    await compute();
    const data = await ok<SimilarityPairsData>(
      api.similarityPairs,
      { exam_id: s.examId, question_id: questionId, page_size: 100 },
      grader,
    );
    const pair = data.list.find((p) => big.includes(p.a.attempt_id) && big.includes(p.b.attempt_id))!;
    expect(pair, 'the two repeated answers are a pair').toBeDefined();
    const timed = async <T>(work: Promise<T>) => {
      const started = performance.now();
      const value = await work;
      return { value, ms: performance.now() - started };
    };
    const [view, site] = await Promise.all([
      timed(call(api.similarityPair, { exam_id: s.examId, pair_id: pair.id }, grader)),
      // Asked once the pair view is under way: a view that held the event loop would hold this answer too.
      timed(
        new Promise((resolve) => setTimeout(resolve, 50)).then(() =>
          s.t.app.inject({ method: 'GET', url: '/api/common/site-config' }),
        ),
      ),
    ]);
    expect(view.value.http).toBe(200);
    expect(view.ms, 'the pair view answers within 20 s').toBeLessThan(20_000);
    expect(site.value.statusCode).toBe(200);
    expect(site.ms, 'another call answers within 2 s meanwhile').toBeLessThan(2_000);
  });
});
