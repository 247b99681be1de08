/**
 * Grading over HTTP on both dialects: per-question rows and the final score, the grader's queue with blind
 * marking, double marking with reconciliation beyond the margin, rubric checks, graders limited to their
 * exams and sections, progress, the candidate's result once graded, and key corrections re-scoring every
 * finished attempt concerned in a background job.
 */
import {
  api,
  type AnswerValue,
  type ExamResult,
  type GradingExamListData,
  type GradingItemData,
  type GradingItemRef,
  type GradingMarkData,
  type GradingNextData,
  type GradingProgressData,
  type ReconcileListData,
} from '@examhall/contract';
import { describe, expect, it } from 'vitest';
import { GradingRepository } from '../repositories/grading.js';
import { body } from '../test/app.js';
import { adminApp, examGrader, questionOfKind, staffMember, takeExam } from '../test/examScenario.js';
import { testedDialects } from '../test/db.js';
import { waitForJob } from '../test/jobs.js';

const QA_ANSWER: AnswerValue = {
  kind: 'text',
  html: '<p>Atomicity, isolation.</p><img src=x onerror=alert(1)>',
  files: [],
};

describe.each(await testedDialects())('grading on %s', (dialect) => {
  const s = adminApp(dialect, { each: true });
  const { call, ok } = s;

  /** A grader account of its own (name and token), assigned to the exam unless told not to. */
  const grader = (name: string, assign = true) => examGrader(s.t, s.admin, s.examId, name, assign);

  /** The id of the published version's question of a kind. */
  const questionOf = (kind: string) => questionOfKind(s.t, s.examId, kind);

  /** A candidate who enters the exam, saves these answers and (unless told not to) submits. */
  const candidate = (name: string, answers: Record<number, AnswerValue>, submit = true) =>
    takeExam(s.t, s.examId, answers, { profile: { name, school: 'Tsinghua' }, submit });

  const result = async (token: string) =>
    body<ExamResult>(await s.t.app.inject(`/api/exam/result?exam_id=${s.examId}&auth=${token}`)).data;

  const rowsOf = (attemptId: number) =>
    s.t.db.handle.db.selectFrom('question_scores').selectAll().where('attempt_id', '=', attemptId).execute();

  it('finishing writes one row per question (automatic, judged, manual) and the final score adds them', async () => {
    const single = await questionOf('single');
    const qa = await questionOf('qa');
    const c = await candidate('Li Lei', { [single]: { kind: 'choice', option: 'B' }, [qa]: QA_ANSWER });
    const rows = await rowsOf(c.attemptId);
    expect(rows).toHaveLength(11);
    const by = new Map(rows.map((r) => [r.question_id, r]));
    expect(by.get(single)).toMatchObject({ source: 'auto', points: 5, max: 5 });
    expect(by.get(qa)).toMatchObject({ source: 'manual', points: null, max: 10 });
    // The programming Q&A was left empty: 0 points, nothing for a grader.
    expect(by.get(await questionOf('programming_qa'))).toMatchObject({ source: 'auto', points: 0 });
    expect(by.get(await questionOf('programming'))).toMatchObject({ source: 'judge', points: 0, max: 20 });
    expect(c.result).toMatchObject({ score: 5, max_score: 76, pending_manual: 1 });

    const item = await ok<GradingItemData>(api.gradingItem, { attempt_id: c.attemptId, question_id: qa });
    expect(item.criteria.map((x) => x.points)).toEqual([2.5, 2.5, 2.5, 2.5]);
    // The candidate's rich text was sanitized when saved: no script reaches the grader's page.
    expect(item.answer).toEqual({ kind: 'text', html: expect.not.stringContaining('onerror'), files: [] });
    const marked = await ok<GradingMarkData>(api.gradingMark, {
      attempt_id: c.attemptId,
      question_id: qa,
      criteria: [2.5, 0, 2.5, 1],
      comment: 'Consistency missing',
    });
    expect(marked).toMatchObject({ state: 'graded', final: 6, mark: { total: 6, criteria: [2.5, 0, 2.5, 1] } });
    expect(await result(c.token)).toMatchObject({ score: 11, max_score: 76, pending_manual: 0 });
    const attempt = await s.t.services.attempts.byId(c.attemptId);
    expect([attempt!.score, attempt!.max_score]).toEqual([11, 76]);
  });

  it('refuses a criterion over its points, a second mark by the same grader, and a mark once decided', async () => {
    const qa = await questionOf('qa');
    const c = await candidate('Han Meimei', { [qa]: QA_ANSWER });
    const ref = { attempt_id: c.attemptId, question_id: qa };
    const over = await call(api.gradingMark, { ...ref, criteria: [3, 0, 0, 0] });
    expect([over.http, over.code, over.msg]).toEqual([
      422,
      'validation_error',
      'criteria.0: at most 2.5 points for Atomicity 原子性',
    ]);
    const short = await call(api.gradingMark, { ...ref, criteria: [1] });
    expect([short.http, short.msg]).toEqual([422, 'criteria: give points for each of the 4 criteria']);
    const negative = await call(api.gradingMark, { ...ref, criteria: [-1, 0, 0, 0] });
    expect(negative.http).toBe(422);
    await ok(api.gradingMark, { ...ref, criteria: [1, 1, 1, 1] });
    const again = await call(api.gradingMark, { ...ref, criteria: [2, 2, 2, 2] });
    expect([again.http, again.code]).toEqual([409, 'answer_already_graded']);
    const g = await grader('Late grader');
    const late = await call(api.gradingMark, { ...ref, criteria: [2, 2, 2, 2] }, g.token);
    expect([late.http, late.code]).toEqual([409, 'answer_already_graded']);
    // An automatically scored question is no answer to grade.
    const single = await call(api.gradingItem, { attempt_id: c.attemptId, question_id: await questionOf('single') });
    expect([single.http, single.code]).toEqual([404, 'not_found']);
  });

  it('graders reach only the exams and sections they are assigned to', async () => {
    const qa = await questionOf('qa');
    const c = await candidate('Wang Fang', { [qa]: QA_ANSWER });
    const outsider = await grader('Outsider', false);
    const ref = { attempt_id: c.attemptId, question_id: qa };
    for (const [callDef, input] of [
      [api.gradingNext, { exam_id: s.examId }],
      [api.gradingItem, ref],
      [api.gradingMark, { ...ref, criteria: [1, 1, 1, 1] }],
      [api.gradingProgress, { exam_id: s.examId }],
    ] as const) {
      const res = await call(callDef, input, outsider.token);
      expect([res.http, res.code], callDef.path).toEqual([404, 'not_found']);
    }
    expect((await ok<GradingExamListData>(api.gradingExams, {}, outsider.token)).list).toEqual([]);
    // Limited to the linetest section, a grader gets nothing of the major section's Q&A.
    const linetest = await grader('Linetest only');
    await ok(api.gradingAssign, { exam_id: s.examId, staff_id: linetest.id, sections: ['linetest'] });
    expect(await ok<GradingNextData>(api.gradingNext, { exam_id: s.examId }, linetest.token)).toEqual({
      next: null,
      left: 0,
    });
    expect((await call(api.gradingItem, ref, linetest.token)).http).toBe(404);
    await ok(api.gradingAssign, { exam_id: s.examId, staff_id: linetest.id, sections: ['major'] });
    expect(await ok<GradingNextData>(api.gradingNext, { exam_id: s.examId }, linetest.token)).toEqual({
      next: ref,
      left: 1,
    });
  });

  it('two graders taking the last mark of an answer at the same moment: one mark is stored, the other refused', async () => {
    const qa = await questionOf('qa');
    await ok(api.gradingSettings, { exam_id: s.examId, blind: false, double_marking: true, margin: 10 });
    const [first, second, third] = [await grader('First'), await grader('Second'), await grader('Third')];
    const people = [];
    for (let i = 0; i < 6; i++) people.push(await candidate(`Candidate ${i}`, { [qa]: QA_ANSWER }));
    const criteria = [1, 1, 1, 1];
    for (const p of people) {
      const ref = { attempt_id: p.attemptId, question_id: qa };
      await ok(api.gradingMark, { ...ref, criteria }, first.token);
      // The second mark settles the answer: two graders send it at once.
      const both = await Promise.all([
        call(api.gradingMark, { ...ref, criteria }, second.token),
        call(api.gradingMark, { ...ref, criteria }, third.token),
      ]);
      expect(both.map((r) => r.http).sort()).toEqual([200, 409]);
      expect(both.find((r) => r.http === 409)!.code).toBe('answer_already_graded');
      const marks = await s.t.db.handle.db
        .selectFrom('grading_marks')
        .select('grader_id')
        .where('attempt_id', '=', p.attemptId)
        .execute();
      expect(marks).toHaveLength(2);
    }
  });

  it('blind double marking: two graders each, reconciliation beyond the margin shows both marks, names once done', async () => {
    const qa = await questionOf('qa');
    await ok(api.gradingSettings, { exam_id: s.examId, blind: true, double_marking: true, margin: 2 });
    const first = await grader('Grader One');
    const second = await grader('Grader Two');
    const people = [
      await candidate('Zhang San', { [qa]: QA_ANSWER }),
      await candidate('Li Si', { [qa]: QA_ANSWER }),
      await candidate('Wang Wu', { [qa]: QA_ANSWER }),
    ];
    // Grader One takes the answers in order; each is blind and the queue moves past what they marked.
    const firstMarks = [
      [2.5, 2.5, 2.5, 2.5],
      [2.5, 2.5, 0, 0],
      [1, 1, 1, 1],
    ];
    for (const [i, criteria] of firstMarks.entries()) {
      const next = await ok<GradingNextData>(api.gradingNext, { exam_id: s.examId }, first.token);
      expect(next).toEqual({ next: { attempt_id: people[i]!.attemptId, question_id: qa }, left: 3 - i });
      const item = await ok<GradingItemData>(api.gradingItem, next.next!, first.token);
      expect(item).toMatchObject({ blind: true, candidate: null, state: 'waiting', my_mark: null, marks: [] });
      expect(JSON.stringify(item)).not.toContain('Zhang San');
      const marked = await ok<GradingMarkData>(api.gradingMark, { ...next.next!, criteria }, first.token);
      expect(marked.state).toBe('waiting');
    }
    expect(await ok<GradingNextData>(api.gradingNext, { exam_id: s.examId }, first.token)).toEqual({
      next: null,
      left: 0,
    });
    // Grader Two: agrees within the margin on the first (10 and 8: the mean), disagrees on the second (5 and 10).
    const secondMarks = [
      [2.5, 2.5, 2.5, 0.5],
      [2.5, 2.5, 2.5, 2.5],
      [1, 1, 1, 1],
    ];
    const finals: (number | null)[] = [];
    for (const criteria of secondMarks) {
      const next = (await ok<GradingNextData>(api.gradingNext, { exam_id: s.examId }, second.token)).next!;
      finals.push((await ok<GradingMarkData>(api.gradingMark, { ...next, criteria }, second.token)).final);
    }
    expect(finals).toEqual([9, null, 4]);
    const progress = await ok<GradingProgressData>(api.gradingProgress, { exam_id: s.examId });
    expect(progress).toMatchObject({ total: 3, graded: 2, reconcile: 1 });
    expect(progress.graders).toEqual([
      { staff_id: first.id, name: 'Grader One', marks: 3 },
      { staff_id: second.id, name: 'Grader Two', marks: 3 },
    ]);
    expect(progress.questions).toEqual([
      expect.objectContaining({ question_id: qa, total: 3, graded: 2, reconcile: 1 }),
    ]);

    const reconcile = await ok<ReconcileListData>(api.gradingReconcile, { exam_id: s.examId });
    expect(reconcile.total).toBe(1);
    expect(reconcile.list[0]).toMatchObject({
      attempt_id: people[1]!.attemptId,
      question_id: qa,
      difference: 5,
      marks: [
        { grader_name: 'Grader One', total: 5 },
        { grader_name: 'Grader Two', total: 10 },
      ],
    });
    // Still blind while one answer waits; the reconciling mark decides and lifts it.
    const ref = { attempt_id: people[1]!.attemptId, question_id: qa };
    const before = await ok<GradingItemData>(api.gradingItem, ref);
    expect(before).toMatchObject({ state: 'reconcile', candidate: null, marks: [{ total: 5 }, { total: 10 }] });
    expect((await call(api.gradingMark, { ...ref, criteria: [1, 1, 1, 1] }, first.token)).code).toBe(
      'answer_already_graded',
    );
    const decided = await ok<GradingMarkData>(api.gradingReconcileMark, { ...ref, criteria: [2.5, 2.5, 2.5, 0] });
    expect(decided).toMatchObject({ state: 'graded', final: 7.5, mark: { reconciling: true } });
    expect((await ok<ReconcileListData>(api.gradingReconcile, { exam_id: s.examId })).total).toBe(0);
    const after = await ok<GradingItemData>(api.gradingItem, ref, second.token);
    expect(after).toMatchObject({ blind: false, candidate: { name: 'Li Si', school: 'Tsinghua' }, final: 7.5 });
    expect((await result(people[1]!.token)).score).toBe(7.5);
    const list = await ok<GradingExamListData>(api.gradingExams, {}, second.token);
    expect(list.list).toEqual([
      expect.objectContaining({ exam_id: s.examId, total: 3, graded: 3, reconcile: 0, mine_left: 0 }),
    ]);
  });

  it('a grader who gave one of two marks too far apart does not decide them: another grader, an author of the team or an admin does', async () => {
    const qa = await questionOf('qa');
    const team = await s.t.team('Campus team');
    await s.t.db.handle.db.updateTable('exams').set({ team_id: team }).where('id', '=', s.examId).execute();
    await ok(api.gradingSettings, { exam_id: s.examId, blind: false, double_marking: true, margin: 1 });
    const [first, second, third] = [await grader('First'), await grader('Second'), await grader('Third')];
    const idle = await grader('Not on this exam', false);
    const member = (role: 'author' | 'proctor', teamId: number) => staffMember(s.t, s.admin, role, { teamId });
    const author = await member('author', team);
    const foreignAuthor = await member('author', await s.t.team('Other team'));
    const proctor = await member('proctor', team);
    // Three answers, each marked 5 by First and 10 by Second: two apart by more than the margin.
    const refs: GradingItemRef[] = [];
    for (const name of ['Zhou', 'Wu', 'Zheng']) {
      const { attemptId } = await candidate(name, { [qa]: QA_ANSWER });
      const ref = { attempt_id: attemptId, question_id: qa };
      await ok(api.gradingMark, { ...ref, criteria: [2.5, 2.5, 0, 0] }, first.token);
      await ok(api.gradingMark, { ...ref, criteria: [2.5, 2.5, 2.5, 2.5] }, second.token);
      refs.push(ref);
    }
    expect((await ok<ReconcileListData>(api.gradingReconcile, { exam_id: s.examId })).total).toBe(3);

    const decide = (ref: GradingItemRef, token: string) =>
      call<GradingMarkData>(api.gradingReconcileMark, { ...ref, criteria: [2.5, 2.5, 2.5, 0] }, token);
    for (const who of [first, second]) {
      const own = await decide(refs[0]!, who.token);
      expect([own.http, own.code]).toEqual([403, 'reconcile_own_mark']);
    }
    expect((await decide(refs[0]!, proctor.token)).http).toBe(403);
    expect((await decide(refs[0]!, idle.token)).http).toBe(404);
    expect((await decide(refs[0]!, foreignAuthor.token)).http).toBe(404);
    // A grader's own mark call does not decide either.
    expect((await call(api.gradingMark, { ...refs[0]!, criteria: [1, 1, 1, 1] }, third.token)).code).toBe(
      'answer_already_graded',
    );
    const refused = await s.t.db.handle.db
      .selectFrom('grading_marks')
      .select('id')
      .where('attempt_id', '=', refs[0]!.attempt_id)
      .execute();
    expect(refused).toHaveLength(2);

    for (const [ref, token] of [
      [refs[0]!, third.token],
      [refs[1]!, author.token],
      [refs[2]!, s.admin],
    ] as const) {
      const decided = await decide(ref, token);
      expect(decided.http, decided.msg).toBe(200);
      expect(decided.data).toMatchObject({ state: 'graded', final: 7.5, mark: { reconciling: true } });
    }
    expect((await ok<ReconcileListData>(api.gradingReconcile, { exam_id: s.examId })).total).toBe(0);
    const entries = await s.t.db.handle.db
      .selectFrom('audit_log')
      .select(['actor_name', 'object_id'])
      .where('action', '=', 'grading.reconcile')
      .orderBy('id')
      .execute();
    expect(entries.map((e) => e.object_id)).toEqual(refs.map((r) => r.attempt_id));
    expect(entries.map((e) => e.actor_name)).toEqual(['Third', author.name, 'Administrator']);
  });

  it('new settings decide marked answers again: a wider margin settles two marks, and the score follows', async () => {
    const qa = await questionOf('qa');
    await ok(api.gradingSettings, { exam_id: s.examId, blind: false, double_marking: true, margin: 1 });
    const c = await candidate('Zhao Liu', { [qa]: QA_ANSWER });
    const ref = { attempt_id: c.attemptId, question_id: qa };
    const other = await grader('Other grader');
    await ok(api.gradingMark, { ...ref, criteria: [2.5, 2.5, 0, 0] });
    await ok(api.gradingMark, { ...ref, criteria: [2.5, 2.5, 2.5, 0.5] }, other.token);
    expect((await ok<ReconcileListData>(api.gradingReconcile, { exam_id: s.examId })).total).toBe(1);
    await ok(api.gradingSettings, { exam_id: s.examId, blind: false, double_marking: true, margin: 3 });
    expect((await ok<ReconcileListData>(api.gradingReconcile, { exam_id: s.examId })).total).toBe(0);
    expect(await result(c.token)).toMatchObject({ score: 6.5, pending_manual: 0 });
    // Back to a narrow margin: the answer waits for reconciliation again and its points leave the score.
    await ok(api.gradingSettings, { exam_id: s.examId, blind: false, double_marking: true, margin: 1 });
    expect(await result(c.token)).toMatchObject({ score: 0, pending_manual: 1 });
  });

  it('Changing a key re-scores every finished attempt concerned', async () => {
    const single = await questionOf('single');
    const right = await candidate('Right', { [single]: { kind: 'choice', option: 'B' } });
    const alsoRight = await candidate('Also right', { [single]: { kind: 'choice', option: 'B' } });
    const other = await candidate('Other', { [single]: { kind: 'choice', option: 'A' } });
    const running = await candidate('Running', { [single]: { kind: 'choice', option: 'B' } }, false);
    expect([right, alsoRight, other].map((c) => c.result!.score)).toEqual([5, 5, 0]);
    const before = await s.t.db.handle.db
      .selectFrom('audit_log')
      .select('id')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();

    const bad = await call(api.gradingKey, { exam_id: s.examId, question_id: single, key: { option: 'Z' } });
    expect([bad.http, bad.code]).toEqual([422, 'validation_error']);
    const { job_id } = await ok<{ job_id: number }>(api.gradingKey, {
      exam_id: s.examId,
      question_id: single,
      key: { option: 'A' },
    });
    const job = await waitForJob(s.t, s.admin, job_id);
    expect(job).toMatchObject({ kind: 'rescore', state: 'done', result: { attempts: 3, changed: 3 } });

    const scores = async (id: number) => [
      (await s.t.services.attempts.byId(id))!.score,
      (await rowsOf(id)).find((r) => r.question_id === single)?.points,
    ];
    expect(await scores(right.attemptId)).toEqual([0, 0]);
    expect(await scores(alsoRight.attemptId)).toEqual([0, 0]);
    expect(await scores(other.attemptId)).toEqual([5, 5]);
    // The attempt still running was not touched, and it is scored with the corrected key when it ends.
    expect(await scores(running.attemptId)).toEqual([null, undefined]);
    await s.t.services.attempts.finish(running.attemptId, 'submit');
    expect(await scores(running.attemptId)).toEqual([0, 0]);
    expect((await result(other.token)).score).toBe(5);

    const entries = await s.t.db.handle.db
      .selectFrom('audit_log')
      .selectAll()
      .where('id', '>', before.id)
      .orderBy('id')
      .execute();
    expect(entries.map((e) => e.action)).toEqual(['grading.key', 'grading.rescore']);
    expect(JSON.parse(entries[1]!.after!)).toMatchObject({
      question_id: single,
      attempts: 3,
      changed: [
        { id: right.attemptId, before: 5, after: 0 },
        { id: alsoRight.attemptId, before: 5, after: 0 },
        { id: other.attemptId, before: 0, after: 5 },
      ],
    });
    // A question of no published version of this exam is not found.
    const missing = await call(api.gradingKey, { exam_id: s.examId, question_id: 999_999, key: { option: 'A' } });
    expect([missing.http, missing.code]).toEqual([404, 'not_found']);
  });

  it('scores with a key another API process corrected, though this one cached the version before', async () => {
    const single = await questionOf('single');
    const c = await candidate('Li Lei', { [single]: { kind: 'choice', option: 'B' } }, false);
    // This process holds the version (the candidate entered and saved); another one corrects the key: the stored
    // row and the version's correction count change, this process's cache is not told.
    const versionId = (await s.t.services.attempts.byId(c.attemptId))!.version_id!;
    await s.t.db.handle.db
      .transaction()
      .execute((trx) => new GradingRepository(trx).setKey(single, versionId, JSON.stringify({ option: 'A' })));
    await s.t.services.attempts.finish(c.attemptId, 'submit');
    const rows = await rowsOf(c.attemptId);
    expect(rows.find((r) => r.question_id === single)).toMatchObject({ source: 'auto', points: 0 });
    expect((await result(c.token)).score).toBe(0);
  });
});
