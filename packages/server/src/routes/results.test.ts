/**
 * Results over HTTP on both dialects: the ranking (order, ties sharing a rank, by section, each filter, paging,
 * the pass rule, grading pending or complete), one attempt's report (points and source per question, time per
 * question from the answer events, dimensions, integrity), the figures for charts, the dimension report, and
 * exports as jobs whose xlsx and CSV files are read back; graders outside the exam and blind grading.
 */
import { randomUUID } from 'node:crypto';
import {
  GRADING_STATE_TEXTS,
  OUTCOME_TEXTS,
  SECTION_SCORE_TEXTS,
  AnswerEvent,
  api,
  type AnswerValue,
  type DimensionReportData,
  type JobView,
  type RankingData,
  type ResultExportResult,
  type ResultReportData,
  type ResultStatsData,
} from '@examhall/contract';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { body } from '../test/app.js';
import { adminApp, enterAsNew, examGrader, questionsByKind } from '../test/examScenario.js';
import { testedDialects } from '../test/db.js';
import { waitForJob } from '../test/jobs.js';

const QA_ANSWER: AnswerValue = { kind: 'text', html: '<p>Atomicity, isolation.</p>', files: [] };

/** A candidate to put through the exam. */
interface Taker {
  name: string;
  school: string;
  major: string;
  answers: [kind: string, answer: AnswerValue][];
  /** Risk events to record during the attempt. */
  risks?: number;
  /** Evaluation answers by dimension. */
  evaluation?: Record<string, string>;
  /** Leave the attempt running. */
  unfinished?: boolean;
}

describe.each(await testedDialects())('results on %s', (dialect) => {
  const s = adminApp(dialect, { each: true });
  const { call, ok } = s;

  /** The published version's questions by kind (evaluation items by dimension). */
  const questions = () => questionsByKind(s.t, s.examId);

  /** Sets the published version's pass rule (the editor would publish a new version; these attempts keep this one). */
  async function passAt(points: number): Promise<void> {
    await passingRule({ kind: 'points', min_points: points });
  }

  /** Sets the published version's pass rule. */
  async function passingRule(passing: object): Promise<void> {
    const exam = await s.t.db.handle.db
      .selectFrom('exams')
      .select('published_version_id')
      .where('id', '=', s.examId)
      .executeTakeFirstOrThrow();
    const versionId = exam.published_version_id!;
    const row = await s.t.db.handle.db
      .selectFrom('exam_versions')
      .select('definition')
      .where('id', '=', versionId)
      .executeTakeFirstOrThrow();
    const definition = { ...(JSON.parse(row.definition) as object), passing };
    await s.t.db.handle.db
      .updateTable('exam_versions')
      .set({ definition: JSON.stringify(definition) })
      .where('id', '=', versionId)
      .execute();
    s.t.services.catalog.forgetVersion(versionId);
  }

  /**
   * Takes the exam: enters, opens the first answered question (an enter event), spends 30 s on each answered
   * question (leave and goto events), records risks, answers the evaluation, and submits.
   */
  async function take(who: Taker): Promise<{ attemptId: number; token: string; records: number[] }> {
    const { attemptId, token } = await enterAsNew(s.t, s.examId, {
      profile: { name: who.name, school: who.school, major: who.major },
    });
    const ids = await questions();
    let seq = 0;
    const post = async (url: string, payload: object) => {
      const res = await s.t.app.inject({ method: 'POST', url: `/api${url}?auth=${token}`, payload });
      expect(res.statusCode, res.body).toBe(200);
    };
    const event = async (questionId: number, e: number) => {
      seq += 1;
      await post('/answer/answer', {
        exam_id: s.examId,
        subject_id: questionId,
        event: e,
        client_id: randomUUID(),
        seq,
        changed_at: s.t.now(),
      });
    };
    let previous: number | null = null;
    for (const [kind, answer] of who.answers) {
      const id = ids.get(kind)!;
      if (previous === null) await event(id, AnswerEvent.enter);
      else {
        await event(previous, AnswerEvent.leave);
        await event(id, AnswerEvent.goto);
      }
      seq += 1;
      await post('/answer/answer', {
        exam_id: s.examId,
        subject_id: id,
        answer,
        client_id: randomUUID(),
        seq,
        changed_at: s.t.now(),
      });
      previous = id;
      s.t.advance(30_000);
    }
    for (const [dimension, option] of Object.entries(who.evaluation ?? {})) {
      seq += 1;
      await post('/ceping/answer', {
        exam_id: s.examId,
        subject_id: ids.get(`evaluation:${dimension}`)!,
        option,
        client_id: randomUUID(),
        seq,
        changed_at: s.t.now(),
      });
    }
    const records: number[] = [];
    for (let i = 0; i < (who.risks ?? 0); i++) {
      const res = await s.t.app.inject({
        method: 'POST',
        url: `/api/monitor/record-risk?auth=${token}`,
        payload: new URLSearchParams({
          exam_id: String(s.examId),
          risk: String(i === 0 ? 1 : 3),
          trigger_time: String(s.t.now()),
          client_id: randomUUID(),
        }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(res.statusCode, res.body).toBe(200);
      records.push(body<{ id: number }>(res).data.id);
    }
    if (!who.unfinished) {
      if (previous !== null) await event(previous, AnswerEvent.submit);
      await post('/monitor/finish-exam', { exam_id: s.examId });
    }
    return { attemptId, token, records };
  }

  /**
   * Five candidates: Li Lei 9 points with a Q&A waiting for a grader, Han Meimei and Wang Fang tied at 10,
   * Zhao Lei 2 with two risk records (one confirmed), and Sun Li still in the exam.
   */
  async function cohort() {
    await passAt(10);
    const li = await take({
      name: 'Li Lei',
      school: 'Tsinghua University',
      major: 'Computer Science',
      answers: [
        ['single', { kind: 'choice', option: 'B' }],
        ['fill_blank', { kind: 'blanks', blanks: ['404', '500'] }],
        ['qa', QA_ANSWER],
      ],
      evaluation: { teamwork: 'A', resilience: 'C' },
    });
    const han = await take({
      name: 'Han Meimei',
      school: 'Peking University',
      major: 'Mathematics',
      answers: [
        ['single', { kind: 'choice', option: 'B' }],
        ['multiple', { kind: 'multi', options: ['A', 'C'] }],
      ],
      evaluation: { teamwork: 'B', resilience: 'B' },
    });
    const wang = await take({
      name: 'Wang Fang',
      school: 'Tsinghua University',
      major: 'Physics',
      answers: [
        ['single', { kind: 'choice', option: 'B' }],
        ['gradient', { kind: 'choice', option: 'A' }],
      ],
      risks: 0,
    });
    const zhao = await take({
      name: 'Zhao Lei',
      school: 'Fudan University',
      major: 'Chemistry',
      answers: [['true_false', { kind: 'choice', option: 'A' }]],
      risks: 2,
    });
    const sun = await take({
      name: 'Sun Li',
      school: 'Tsinghua University',
      major: 'Biology',
      answers: [['single', { kind: 'choice', option: 'B' }]],
      unfinished: true,
    });
    await ok(api.proctorDecide, { record_id: zhao.records[0], decision: 'confirmed', note: 'phone in hand' });
    return { li, han, wang, zhao, sun };
  }

  const ranking = (q: Record<string, unknown> = {}) =>
    ok<RankingData>(api.resultsRanking, { exam_id: s.examId, page_size: 50, ...q });
  const names = (d: RankingData) => d.list.map((r) => [r.candidate.name, r.rank]);

  it('ranks finished attempts with ties sharing a rank, by section, filtered, sorted and paged', async () => {
    const c = await cohort();
    const all = await ranking();
    expect(all.finished).toBe(4);
    expect(all.total).toBe(4);
    expect(names(all)).toEqual([
      ['Han Meimei', 1],
      ['Wang Fang', 1],
      ['Li Lei', 3],
      ['Zhao Lei', 4],
    ]);
    const li = all.list.find((r) => r.attempt_id === c.li.attemptId)!;
    expect(li).toMatchObject({
      score: 9,
      max_score: 76,
      grading: 'pending',
      // 9 is short of the bar of 10 while the Q&A waits for a grader: undecided.
      passed: null,
      sections: [
        { section: 'linetest', score: 5, max: 23 },
        { section: 'major', score: 4, max: 53 },
      ],
      candidate: { name: 'Li Lei', school: 'Tsinghua University', major: 'Computer Science' },
    });
    expect(li.candidate.phone).toMatch(/^\d{3}\*{4}\d{4}$/);
    const han = all.list.find((r) => r.attempt_id === c.han.attemptId)!;
    expect(han).toMatchObject({ score: 10, passed: true, grading: 'complete', flagged: false });
    // Every attempt has the skipped device checks' records (the test's checks skip what the demo allows).
    const base = han.risk_count;
    expect(li.risk_count).toBe(base);
    const zhao = all.list.find((r) => r.attempt_id === c.zhao.attemptId)!;
    expect(zhao).toMatchObject({ score: 2, passed: false, risk_count: base + 2, flagged: true, open_flags: base + 1 });
    expect(all.list.some((r) => r.attempt_id === c.sun.attemptId)).toBe(false);

    // The grader's mark lifts Li Lei to 15: first, passed, complete.
    await ok(api.gradingMark, {
      attempt_id: c.li.attemptId,
      question_id: (await questions()).get('qa'),
      criteria: [2.5, 0, 2.5, 1],
      comment: '',
    });
    const graded = await ranking();
    expect(names(graded)).toEqual([
      ['Li Lei', 1],
      ['Han Meimei', 2],
      ['Wang Fang', 2],
      ['Zhao Lei', 4],
    ]);
    expect(graded.list[0]).toMatchObject({ score: 15, passed: true, grading: 'complete' });

    // By section: the linetest (Han 10, Li and Wang 5, Zhao 2) and the major (Li 10, Wang 5, Han and Zhao 0).
    expect(names(await ranking({ section: 'linetest' }))).toEqual([
      ['Han Meimei', 1],
      ['Li Lei', 2],
      ['Wang Fang', 2],
      ['Zhao Lei', 4],
    ]);
    expect(names(await ranking({ section: 'major' }))).toEqual([
      ['Li Lei', 1],
      ['Wang Fang', 2],
      ['Han Meimei', 3],
      ['Zhao Lei', 3],
    ]);

    // Filters narrow the list and keep each rank.
    expect(names(await ranking({ school: 'tsinghua' }))).toEqual([
      ['Li Lei', 1],
      ['Wang Fang', 2],
    ]);
    expect(names(await ranking({ major: 'MATH' }))).toEqual([['Han Meimei', 2]]);
    expect(names(await ranking({ score_min: 10, score_max: 12 }))).toEqual([
      ['Han Meimei', 2],
      ['Wang Fang', 2],
    ]);
    expect(names(await ranking({ section: 'linetest', score_min: 5, score_max: 5 }))).toEqual([
      ['Li Lei', 2],
      ['Wang Fang', 2],
    ]);
    expect(names(await ranking({ risk_min: base + 1 }))).toEqual([['Zhao Lei', 4]]);
    expect(names(await ranking({ risk_max: base }))).toHaveLength(3);
    expect(names(await ranking({ risk_min: base, risk_max: base + 2 }))).toHaveLength(4);
    expect(names(await ranking({ flagged: 'true' }))).toEqual([['Zhao Lei', 4]]);
    expect(names(await ranking({ flagged: 'false' }))).toHaveLength(3);

    // Sorting and paging on the server.
    expect(names(await ranking({ sort: 'name', order: 'asc' })).map((r) => r[0])).toEqual([
      'Han Meimei',
      'Li Lei',
      'Wang Fang',
      'Zhao Lei',
    ]);
    expect(names(await ranking({ sort: 'risk_count', order: 'desc' }))[0]).toEqual(['Zhao Lei', 4]);
    const page2 = await ranking({ page: 2, page_size: 2 });
    expect([page2.total, names(page2)]).toEqual([
      4,
      [
        ['Wang Fang', 2],
        ['Zhao Lei', 4],
      ],
    ]);
    // A page past the end is empty and still counts the rows; a filter matching nothing counts none.
    const beyond = await ranking({ page: 9, page_size: 2 });
    expect([beyond.total, beyond.list]).toEqual([4, []]);
    const none = await ranking({ school: 'Nowhere University' });
    expect([none.total, none.list]).toEqual([0, []]);

    const backwards = await call(api.resultsRanking, { exam_id: s.examId, score_min: 20, score_max: 10 });
    expect([backwards.http, backwards.code, backwards.msg]).toEqual([
      422,
      'validation_error',
      'score_max: less than score_min',
    ]);
    const badSection = await call(api.resultsRanking, { exam_id: s.examId, section: 'evaluation' });
    expect([badSection.http, badSection.code]).toEqual([422, 'validation_error']);
  });

  it("answers one attempt's report: points, sources, time per question, dimensions and integrity", async () => {
    const c = await cohort();
    const ids = await questions();
    const report = await ok<ResultReportData>(api.resultsReport, { attempt_id: c.li.attemptId });
    expect(report).toMatchObject({
      exam_id: s.examId,
      score: 9,
      max_score: 76,
      rank: 3,
      ranked: 4,
      passed: null,
      grading: 'pending',
      candidate: { name: 'Li Lei' },
      dimensions: expect.arrayContaining([
        { dimension: 'teamwork', score: 5, max: 5 },
        { dimension: 'resilience', score: 3, max: 5 },
      ]),
      integrity: { flagged: false, warnings: 0, decisions: [] },
    });
    const base = report.integrity.risk_count;
    expect(report.integrity.open).toBe(base);
    const q = (kind: string) => report.questions.find((x) => x.question_id === ids.get(kind))!;
    expect(report.questions).toHaveLength(11);
    expect(q('single')).toMatchObject({
      section: 'linetest',
      source: 'auto',
      points: 5,
      max: 5,
      answer: { kind: 'choice', option: 'B' },
      time_ms: 30_000,
    });
    expect(q('fill_blank')).toMatchObject({ points: 4, time_ms: 30_000 });
    expect(q('qa')).toMatchObject({ source: 'grader', points: null, max: 10, time_ms: 30_000 });
    expect(q('qa').answer).toMatchObject({ kind: 'text' });
    expect(q('programming')).toMatchObject({ source: 'judge', points: 0, max: 20, time_ms: 0, judge: null });
    expect(q('single').stem.length).toBeGreaterThan(0);

    const zhao = await ok<ResultReportData>(api.resultsReport, { attempt_id: c.zhao.attemptId });
    expect(zhao.integrity).toMatchObject({
      risk_count: base + 2,
      open: base + 1,
      flagged: true,
      by_risk: expect.arrayContaining([
        { risk: 1, count: 1, confirmed: 1, dismissed: 0 },
        { risk: 3, count: 1, confirmed: 0, dismissed: 0 },
      ]),
      decisions: [{ record_id: c.zhao.records[0], risk: 1, decision: 'confirmed', note: 'phone in hand' }],
    });

    const running = await call(api.resultsReport, { attempt_id: c.sun.attemptId });
    expect([running.http, running.code]).toEqual([409, 'conflict']);
    const missing = await call(api.resultsReport, { attempt_id: 999_999 });
    expect([missing.http, missing.code]).toEqual([404, 'not_found']);
  });

  it("answers the exam's figures for charts and the evaluation's dimension report", async () => {
    const c = await cohort();
    const ids = await questions();
    const stats = await ok<ResultStatsData>(api.resultsStats, { exam_id: s.examId, bins: 4 });
    expect(stats).toMatchObject({
      attempts: 4,
      mean: 7.75,
      median: 9.5,
      top: 10,
      max_score: 76,
      pass: { passed: 2, failed: 1, undecided: 1 },
      pass_rule: true,
      distribution: [
        { from: 0, to: 19, count: 4 },
        { from: 19, to: 38, count: 0 },
        { from: 38, to: 57, count: 0 },
        { from: 57, to: 76, count: 0 },
      ],
      sections: [
        { section: 'linetest', mean: 5.5, max: 23 },
        { section: 'major', mean: 2.25, max: 53 },
      ],
    });
    const single = stats.questions.find((x) => x.question_id === ids.get('single'))!;
    // Three candidates spent 30 s on it (Sun Li, still in the exam, is not counted).
    expect(single).toMatchObject({
      section: 'linetest',
      mean_ms: 30_000,
      median_ms: 30_000,
      mean_points: 3.75,
      max: 5,
    });
    expect(stats.questions).toHaveLength(11);
    expect(stats.questions.find((x) => x.question_id === ids.get('programming'))).toMatchObject({ mean_ms: 0 });
    // Without a pass rule nobody passes or fails, and the figures say there is none.
    await passingRule({ kind: 'none' });
    expect(await ok<ResultStatsData>(api.resultsStats, { exam_id: s.examId })).toMatchObject({
      pass: { passed: 0, failed: 0, undecided: 4 },
      pass_rule: false,
    });

    const dims = await ok<DimensionReportData>(api.resultsDimensions, { exam_id: s.examId });
    expect(dims.attempts).toBe(4);
    expect(dims.dimensions).toEqual(
      expect.arrayContaining([
        // Li Lei A (5), Han B (4), Wang and Zhao unanswered (0).
        { dimension: 'teamwork', mean: 2.25, min: 0, max_seen: 5, max: 5, bands: [2, 0, 0, 0, 2] },
        { dimension: 'resilience', mean: 1.75, min: 0, max_seen: 4, max: 5, bands: [2, 0, 0, 1, 1] },
      ]),
    );
    expect(c.han.attemptId).toBeGreaterThan(0);
  });

  /** Starts an export and waits for its job. */
  async function exported(input: Record<string, unknown>): Promise<{ job: JobView; result: ResultExportResult }> {
    const { job_id } = await ok<{ job_id: number }>(api.resultsExport, { exam_id: s.examId, ...input });
    const job = await waitForJob(s.t, s.admin, job_id);
    expect(job.state, JSON.stringify(job.error)).toBe('done');
    return { job, result: job.result as ResultExportResult };
  }

  const download = (jobId: number, token = s.admin) =>
    s.t.app.inject({
      method: 'GET',
      url: `/api${api.resultsExportFile.path}`,
      query: { job_id: String(jobId) },
      headers: { authorization: `Bearer ${token}` },
    });

  it('exports the ranking with points per question to xlsx and CSV, in the background, with progress', async () => {
    const c = await cohort();
    const ids = await questions();
    const { job, result } = await exported({ format: 'xlsx', lang: 'en' });
    expect(job).toMatchObject({ kind: 'results_export', progress: { done: 4, total: 4, phase: 'rows' } });
    expect(result).toMatchObject({ rows: 4, format: 'xlsx', file_name: `exam-${s.examId}-results.xlsx` });
    expect(result.download).toBe(`${api.resultsExportFile.path}?job_id=${job.id}`);
    const file = await download(job.id);
    expect(file.statusCode, file.body.slice(0, 300)).toBe(200);
    expect(file.headers['content-type']).toContain('spreadsheetml');
    expect(file.headers['content-disposition']).toContain(`exam-${s.examId}-results.xlsx`);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(header.slice(0, 7)).toEqual(['Rank', 'Attempt', 'Name', 'Phone', 'School', 'Major', 'Score']);
    expect(header).toHaveLength(15 + 11);
    const rows = [2, 3, 4, 5].map((n) => (sheet.getRow(n).values as unknown[]).slice(1));
    expect(rows.map((r) => [r[0], r[2], r[6]])).toEqual([
      [1, 'Han Meimei', 10],
      [1, 'Wang Fang', 10],
      [3, 'Li Lei', 9],
      [4, 'Zhao Lei', 2],
    ]);
    const li = rows[2]!;
    expect(li[1]).toBe(c.li.attemptId);
    // Section columns, outcomes and grading states in the words the console's pages show (the contract's texts).
    expect(header.slice(8, 10)).toEqual([SECTION_SCORE_TEXTS.linetest['en-US'], SECTION_SCORE_TEXTS.major['en-US']]);
    expect(li.slice(7, 11)).toEqual([76, 5, 4, OUTCOME_TEXTS.undecided['en-US']]);
    expect(li[13]).toBe(GRADING_STATE_TEXTS.pending['en-US']);
    // The job list names the export by its file, in no language, not in English words.
    expect(job.title).toBe(`exam-${s.examId}-results.xlsx`);
    // The question columns follow the version's order: the linetest's single choice first.
    const singleColumn =
      15 +
      (await ok<ResultStatsData>(api.resultsStats, { exam_id: s.examId })).questions.findIndex(
        (q) => q.question_id === ids.get('single'),
      );
    expect(li[singleColumn]).toBe(5);
    expect(sheet.rowCount).toBe(5);

    const audit = await s.t.db.handle.db
      .selectFrom('audit_log')
      .select(['action', 'object_id'])
      .where('action', 'in', ['results.export', 'results.download'])
      .orderBy('id')
      .execute();
    expect(audit).toEqual([
      { action: 'results.export', object_id: s.examId },
      { action: 'results.download', object_id: s.examId },
    ]);

    const csv = await exported({ format: 'csv', lang: 'zh', school: 'Tsinghua' });
    expect(csv.result).toMatchObject({ rows: 2, format: 'csv' });
    const text = (await download(csv.job.id)).body;
    expect(text.startsWith('\ufeff排名,答卷编号,姓名')).toBe(true);
    const lines = text.trim().split('\r\n');
    expect(lines).toHaveLength(3);
    expect(lines[1]!.split(',').slice(0, 7)).toEqual([
      '1',
      String(c.wang.attemptId),
      'Wang Fang',
      expect.any(String),
      'Tsinghua University',
      'Physics',
      '10',
    ]);
    expect(lines[2]!.split(',')[10]).toBe('待定');

    // Without a pass rule there is no column of whether each passed.
    await passingRule({ kind: 'none' });
    const unruled = await exported({ format: 'csv', lang: 'zh' });
    const head = (await download(unruled.job.id)).body.replace('\ufeff', '').split('\r\n')[0]!.split(',');
    expect(head).not.toContain('是否通过');
    expect(head.slice(8, 11)).toEqual(['行测得分', '专业得分', '风险记录数']);
    expect(head).toHaveLength(14 + 11);
  });

  it('keeps results from graders outside the exam and hides names from graders while blind grading runs', async () => {
    const c = await cohort();
    const { id: graderId, token } = await examGrader(s.t, s.admin, s.examId, 'Grader', false);
    for (const [c2, input] of [
      [api.resultsRanking, { exam_id: s.examId }],
      [api.resultsReport, { attempt_id: c.han.attemptId }],
      [api.resultsStats, { exam_id: s.examId }],
      [api.resultsDimensions, { exam_id: s.examId }],
      [api.resultsExport, { exam_id: s.examId, format: 'csv' }],
    ] as const) {
      const res = await call(c2, input, token);
      expect([res.http, res.code], c2.path).toEqual([404, 'not_found']);
    }
    const { job } = await exported({ format: 'csv' });
    expect((await download(job.id, token)).statusCode).toBe(404);

    await ok(api.gradingAssign, { exam_id: s.examId, staff_id: graderId, sections: [] });
    await ok(api.gradingSettings, { exam_id: s.examId, blind: true, double_marking: false, margin: 0 });
    const blind = await ok<RankingData>(api.resultsRanking, { exam_id: s.examId }, token);
    expect(blind.blind).toBe(true);
    expect(blind.list.every((r) => r.candidate.name === '' && r.candidate.phone === '')).toBe(true);
    const hidden = await call<{ job_id: number }>(api.resultsExport, { exam_id: s.examId, format: 'csv' }, token);
    expect(hidden.http).toBe(200);
    await waitForJob(s.t, token, hidden.data.job_id);
    const lines = (await download(hidden.data.job_id, token)).body.trim().split('\r\n');
    expect(lines.slice(1).map((l) => l.split(',')[2])).toEqual(['', '', '', '']);
    // The admin still sees who is who.
    expect((await ranking()).list[0]!.candidate.name).not.toBe('');
  });
});
