/**
 * Item analysis over HTTP on both dialects: the hand-computed data of `services/itemAnalysis.test.ts` seeded as
 * finished attempts and read back through the call (every figure, option shares from stored answers, alpha),
 * questions not given or waiting for a grader left out, the flag recorded for the bank question's author (the
 * bank's list and filter, the console home) and cleared by a later analysis, and attempts finished by real
 * candidates. The figures are computed by an `item_analysis` job and kept: a view queues one only when none are
 * kept or a score changed since.
 */
import { api, type BankQuestionListData, type HomeData, type ItemAnalysisData } from '@examhall/contract';
import { describe, expect, it } from 'vitest';
import { seedFinishedAttempts, seedResultsExam, type SeedAttempt } from '../bench/resultsSeed.js';
import { adminApp, questionsByKind, takeExam } from '../test/examScenario.js';
import { testedDialects } from '../test/db.js';
import { choiceOf, ITEM_ALPHA, ITEM_ATTEMPTS, ITEM_QUESTIONS } from '../test/itemFixture.js';
import { waitForJob } from '../test/jobs.js';
import { GradingRepository } from '../repositories/grading.js';

describe.each(await testedDialects())('item analysis on %s', (dialect) => {
  const s = adminApp(dialect, { each: true, seed: false });
  const { call, ok } = s;

  /** The author's account: logged in, with its id. */
  async function author(): Promise<{ id: number; token: string }> {
    const token = await s.t.loginStaff('author');
    const me = await ok<{ id: number }>(api.staffMe, {}, token);
    return { id: me.id, token };
  }

  /**
   * The figures as the page gets them: a view, and when it names a job computing newer ones (none kept, or a score
   * changed since), that job followed to its end and the view again, which must then be current.
   */
  async function analysed(query: Record<string, unknown>, token = s.admin): Promise<ItemAnalysisData> {
    const first = await ok<ItemAnalysisData>(api.itemAnalysis, query, token);
    if (first.job_id === null) return first;
    const job = await waitForJob(s.t, token, first.job_id);
    expect(job).toMatchObject({ kind: 'item_analysis', state: 'done' });
    const data = await ok<ItemAnalysisData>(api.itemAnalysis, query, token);
    expect(data.job_id).toBeNull();
    expect(data.computed_at).not.toBeNull();
    return data;
  }

  async function seeded(attempts: SeedAttempt[], authorId?: number) {
    const exam = await seedResultsExam(s.t.db.handle.db, {
      questions: ITEM_QUESTIONS,
      now: s.t.now(),
      ...(authorId !== undefined ? { authorId } : {}),
    });
    await seedFinishedAttempts(s.t.db.handle.db, exam, attempts, { now: s.t.now() });
    return exam;
  }

  it('answers every figure of the hand-computed data, with option shares from the stored answers', async () => {
    const exam = await seeded(ITEM_ATTEMPTS);
    const data = await analysed({ exam_id: exam.examId });
    expect(data).toMatchObject({ exam_id: exam.examId, version_id: exam.versionId });
    expect(data.versions).toEqual([{ id: exam.versionId, number: 1, attempts: 10 }]);
    const [q1, q2, q3, q4] = data.items;
    expect(data.items.map((q) => [q.number, q.question_id, q.section, q.kind, q.max, q.n, q.pending])).toEqual([
      [1, exam.questionIds[0], 'linetest', 'single', 1, 10, 0],
      [2, exam.questionIds[1], 'linetest', 'qa', 1, 10, 0],
      [3, exam.questionIds[2], 'major', 'qa', 2, 10, 0],
      [4, exam.questionIds[3], 'major', 'single', 1, 10, 0],
    ]);
    expect(q3!.title).toBe('Q3 essay');
    expect(data.items.map((q) => q.facility)).toEqual([0.6, 0.4, 0.5, 0.5]);
    expect(q1!.sd).toBeCloseTo(Math.sqrt(2.4 / 9), 10);
    expect(q3!.sd).toBeCloseTo(Math.sqrt(6 / 9), 10);
    expect(q4!.sd).toBeCloseTo(Math.sqrt(2.5 / 9), 10);
    expect(q1!.item_rest).toBeCloseTo(0.6 / Math.sqrt(2.4 * 6.9), 10);
    expect(q2!.item_rest).toBeCloseTo(0.4666, 3);
    expect(q3!.item_rest).toBeCloseTo(0.2582, 3);
    expect(q4!.item_rest).toBeCloseTo(-0.8485, 3);
    expect(data.items.map((q) => q.upper_lower)).toEqual([
      expect.closeTo(2 / 3, 10),
      expect.closeTo(2 / 3, 10),
      expect.closeTo(1, 10),
      expect.closeTo(-1, 10),
    ]);
    expect(q1!.option_shares).toEqual([
      { option: 'A', share: 0.6, key: true },
      { option: 'B', share: 0.2, key: false },
      { option: 'C', share: 0.1, key: false },
      { option: '', share: 0.1, key: false },
    ]);
    expect(q4!.option_shares).toEqual([
      { option: 'A', share: 0.3, key: false },
      { option: 'B', share: 0.5, key: true },
      { option: 'C', share: 0.1, key: false },
      { option: '', share: 0.1, key: false },
    ]);
    expect(q2!.option_shares).toBeNull();
    expect(data.items.map((q) => q.flagged)).toEqual([false, false, false, true]);
    expect(data.exam).toMatchObject({ attempts: 10, questions: 4, mean_total: 2.5, alpha_attempts: 10 });
    expect(data.exam.alpha).toBeCloseTo(ITEM_ALPHA, 10);
    expect(data.exam.sd_total).toBeCloseTo(Math.sqrt(10.5 / 9), 10);
  });

  it('sorts by any figure, filters flagged questions or a section, and pages on the server', async () => {
    const exam = await seeded(ITEM_ATTEMPTS);
    const page = (query: Record<string, unknown>) => analysed({ exam_id: exam.examId, ...query });
    const byRest = await page({ sort: 'item_rest', order: 'desc', page_size: 3 });
    expect(byRest.items.map((q) => q.number)).toEqual([2, 3, 1]);
    expect([byRest.total, byRest.flagged]).toEqual([4, 1]);
    expect(
      (await page({ sort: 'item_rest', order: 'desc', page_size: 3, page: 2 })).items.map((q) => q.number),
    ).toEqual([4]);
    // Ties keep the exam's order; the exam's figures do not depend on the page.
    const byFacility = await page({ sort: 'facility', order: 'asc' });
    expect(byFacility.items.map((q) => q.number)).toEqual([2, 3, 4, 1]);
    expect(byFacility.exam.attempts).toBe(10);
    const flagged = await page({ flagged: 1 });
    expect([flagged.total, flagged.items.map((q) => q.number)]).toEqual([1, [4]]);
    expect((await page({ section: 'major', sort: 'upper_lower' })).items.map((q) => q.number)).toEqual([4, 3]);
    const bad = await call(api.itemAnalysis, { exam_id: exam.examId, sort: 'alpha' });
    expect([bad.http, bad.code]).toEqual([422, 'validation_error']);
  });

  it('leaves out questions an attempt was not given and answers waiting for a grader', async () => {
    const exam = await seeded([
      ...ITEM_ATTEMPTS,
      // Drawn without Q2.
      { points: [1, undefined, 2, 0], answers: [choiceOf('A'), null, null, choiceOf('C')] },
      // Q3 still waits for a grader.
      { points: [1, 1, null, 0], answers: [choiceOf('A'), null, null, choiceOf('A')] },
    ]);
    const data = await analysed({ exam_id: exam.examId });
    expect(data.items.map((q) => [q.n, q.pending])).toEqual([
      [12, 0],
      [11, 0],
      [11, 1],
      [12, 0],
    ]);
    expect(data.exam).toMatchObject({ attempts: 12, alpha_attempts: 10 });
    expect(data.exam.alpha).toBeCloseTo(ITEM_ALPHA, 10);
    expect(data.items[0]!.option_shares![0]).toEqual({ option: 'A', share: 8 / 12, key: true });
  });

  it('flags the question to its author in the bank and on the home page until an analysis no longer finds it', async () => {
    const writer = await author();
    const exam = await seeded(ITEM_ATTEMPTS, writer.id);
    const flaggedBank = exam.bankQuestionIds[3]!;
    const before = await ok<HomeData>(api.consoleHome, {}, writer.token);
    expect(before.flagged_questions).toBe(0);

    await analysed({ exam_id: exam.examId });
    expect((await ok<HomeData>(api.consoleHome, {}, writer.token)).flagged_questions).toBe(1);
    // Another staff member's home counts their own questions only.
    expect((await ok<HomeData>(api.consoleHome)).flagged_questions).toBe(0);
    const list = await ok<BankQuestionListData>(api.bankQuestions, { flagged: 1 });
    expect(list.total).toBe(1);
    expect(list.list[0]).toMatchObject({
      id: flaggedBank,
      flags: [{ exam_id: exam.examId, exam_name: 'Results exam', n: 10, upper_lower: -1 }],
    });
    expect(list.list[0]!.flags[0]!.item_rest).toBeCloseTo(-0.8485, 3);
    const all = await ok<BankQuestionListData>(api.bankQuestions, {});
    expect(all.list.filter((q) => q.flags.length > 0).map((q) => q.id)).toEqual([flaggedBank]);
    const view = await ok<{ flags: unknown[] }>(api.bankQuestion, { question_id: flaggedBank });
    expect(view.flags).toHaveLength(1);

    // Q4 corrected (its points now follow Q1's): the next analysis clears the flag.
    const attempts = await s.t.db.handle.db
      .selectFrom('question_scores')
      .select(['attempt_id', 'points'])
      .where('question_id', '=', exam.questionIds[0]!)
      .execute();
    for (const a of attempts) {
      await s.t.db.handle.db
        .updateTable('question_scores')
        .set({ points: a.points })
        .where('attempt_id', '=', a.attempt_id)
        .where('question_id', '=', exam.questionIds[3]!)
        .execute();
    }
    // What every score write of the server ends with: the attempt's kept totals, the write counted.
    await new GradingRepository(s.t.db.handle.db).keepTotalsOf(attempts.map((a) => a.attempt_id));
    const again = await analysed({ exam_id: exam.examId });
    expect(again.items.map((q) => q.flagged)).toEqual([false, false, false, false]);
    expect((await ok<HomeData>(api.consoleHome, {}, writer.token)).flagged_questions).toBe(0);
    expect((await ok<BankQuestionListData>(api.bankQuestions, { flagged: 1 })).total).toBe(0);
  });

  it('computes the figures once in a job and answers them kept until a score changes', async () => {
    const exam = await seeded(ITEM_ATTEMPTS);
    const first = await ok<ItemAnalysisData>(api.itemAnalysis, { exam_id: exam.examId });
    expect(first).toMatchObject({ version_id: exam.versionId, computed_at: null, items: [], total: 0 });
    expect(first.job_id).not.toBeNull();
    await waitForJob(s.t, s.admin, first.job_id!);
    const kept = await ok<ItemAnalysisData>(api.itemAnalysis, { exam_id: exam.examId });
    expect(kept.job_id).toBeNull();
    expect(kept.exam.attempts).toBe(10);
    // Current figures are read, not computed: views queue nothing more.
    for (let i = 0; i < 3; i++) {
      expect((await ok<ItemAnalysisData>(api.itemAnalysis, { exam_id: exam.examId })).job_id).toBeNull();
    }
    const jobs = await s.t.db.handle.db
      .selectFrom('job')
      .select('id')
      .where('kind', '=', 'item_analysis')
      .where('exam_id', '=', exam.examId)
      .execute();
    expect(jobs.map((j) => j.id)).toEqual([first.job_id]);
  });

  it('answers an exam never published with nothing to analyse, and 404 for a version of another exam', async () => {
    const exam = await seeded(ITEM_ATTEMPTS.slice(0, 3));
    const draft = await ok<{ exam_id: number }>(api.examEditorCreate, { name: 'Not yet' });
    const empty = await analysed({ exam_id: draft.exam_id });
    expect(empty).toMatchObject({ version_id: null, versions: [], items: [], exam: { attempts: 0, alpha: null } });
    const other = await call(api.itemAnalysis, { exam_id: draft.exam_id, version_id: exam.versionId });
    expect([other.http, other.code]).toEqual([404, 'not_found']);
    const bad = await call(api.itemAnalysis, { exam_id: 'x' });
    expect([bad.http, bad.code]).toEqual([422, 'validation_error']);
  });

  it('reads attempts real candidates finished: their answers, and the Q&A waiting for a grader', async () => {
    const { examId } = await s.t.seed('13800138000');
    const questions = await questionsByKind(s.t, examId);
    const single = questions.get('single')!;
    const qa = questions.get('qa')!;
    for (const [i, option] of ['B', 'A'].entries()) {
      await takeExam(
        s.t,
        examId,
        { [single]: { kind: 'choice', option }, [qa]: { kind: 'text', html: '<p>ACID</p>', files: [] } },
        { phone: `1371000000${i}` },
      );
      if (i === 0) expect((await analysed({ exam_id: examId })).exam.attempts).toBe(1);
    }
    // The second candidate's finish was written after the kept figures: they are answered, with the job that
    // computes newer ones.
    const behind = await ok<ItemAnalysisData>(api.itemAnalysis, { exam_id: examId });
    expect(behind.exam.attempts).toBe(1);
    expect(behind.computed_at).not.toBeNull();
    expect(behind.job_id).not.toBeNull();
    const data = await analysed({ exam_id: examId });
    expect(data.exam.attempts).toBe(2);
    const singleRow = data.items.find((q) => q.question_id === single)!;
    expect(singleRow).toMatchObject({ n: 2, facility: 0.5, pending: 0 });
    expect(singleRow.option_shares!.filter((o) => o.share > 0)).toEqual([
      { option: 'A', share: 0.5, key: false },
      { option: 'B', share: 0.5, key: true },
    ]);
    expect(data.items.find((q) => q.question_id === qa)).toMatchObject({ n: 0, pending: 2, facility: null });
    // The evaluation section is not scored: none of its items is analysed.
    expect(data.items.every((q) => q.section !== ('evaluation' as string))).toBe(true);
  });
});
