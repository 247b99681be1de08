import { randomUUID } from 'node:crypto';
import {
  api,
  type BankQuestionView,
  type ExamDefinitionInput,
  type ExamDetail,
  type ExamResult,
  type PreviewData,
  type QuestionBodyInput,
  type RecommendData,
} from '@examhall/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { facePhoto } from '../bench/facePhotos.js';
import { body } from '../test/app.js';
import { testedDialects } from '../test/db.js';
import { candidateCalls, editorExams, openDraft } from '../test/editorExams.js';
import { adminApp } from '../test/examScenario.js';
import { multipart } from '../test/multipart.js';
import { enterExam } from '../test/checks.js';

/** A single-choice question whose right option is A. */
const single = (stem: string): QuestionBodyInput => ({
  kind: 'single',
  content: {
    stem: `<p>${stem}</p>`,
    options: [
      { id: 'A', content: 'right' },
      { id: 'B', content: 'wrong' },
    ],
  },
  key: { option: 'A' },
});

/** Positions in the author's order: the higher bar first, so an order by fit differs for a low result. */
const POSITIONS = [
  { title: 'Senior', min_ratio: 0.9 },
  { title: 'Middle', min_ratio: 0.5 },
  { title: 'Junior', min_ratio: 0.3 },
];

// The candidate side of the exam editor's outcome settings: the pledge, what candidates see of their result
// (show_score and the passing rule) and the ID photo an exam may require, on exams published by the editor.
describe.each(await testedDialects())('exam settings on the candidate side on %s', (dialect) => {
  // One face worker: setting an ID photo checks that it shows one face.
  const s = adminApp(dialect, { seed: false, app: { env: { FACE_WORKERS: '1' } } });
  let phoneNo = 0;
  /** Bank questions: two of 4 and 6 points, and a Q&A a grader scores. */
  const q = { four: 0, six: 0, qa: 0 };

  beforeAll(async () => {
    q.four = await bankQuestion(single('four points'));
    q.six = await bankQuestion(single('six points'));
    q.qa = await bankQuestion({ kind: 'qa', content: { stem: '<p>Describe ACID.</p>' }, key: { rubric: 'four' } });
  }, 60_000);

  /** Calls a catalogue entry as the admin: query for GET, JSON body otherwise. */
  const { ok } = s;
  const { published, invited } = editorExams(
    () => s.t,
    () => s.admin,
  );

  async function bankQuestion(question: QuestionBodyInput): Promise<number> {
    return (await ok<BankQuestionView>(api.bankQuestionCreate, { question, default_score: 5 })).id;
  }

  /** A draft open now for a day with the 4- and 6-point questions, and `extra` settings. */
  const draft = (name: string, extra: Partial<ExamDefinitionInput> = {}) =>
    openDraft(
      s.t.now(),
      name,
      [
        {
          kind: 'linetest',
          title: '',
          items: [
            { question_id: q.four, points: 4 },
            { question_id: q.six, points: 6 },
          ],
        },
      ],
      { positions: POSITIONS, ...extra },
    );

  /** A candidate invited to the exam and logged in. */
  async function candidate(examId: number) {
    const inv = await invited(examId, `1380000${String(++phoneNo).padStart(4, '0')}`);
    return asCandidate(inv.token, examId, inv.anid, inv.phone);
  }

  function asCandidate(token: string, examId: number, anid: number, phone = '') {
    const { get, post } = candidateCalls(s.t, token);
    return {
      anid,
      phone,
      show: async () => {
        const res = await get(`/exam/show?id=${examId}&anid=${anid}`);
        expect(res.statusCode, res.body).toBe(200);
        return body<ExamDetail>(res).data;
      },
      start: (phase?: 2) =>
        phase ? enterExam(s.t, token, examId, anid) : post('/monitor/start-exam', { exam_id: examId, anid }),
      /** Enters the exam, answers A to the questions whose stems contain one of `right` (B to the rest), submits. */
      async take(...right: string[]): Promise<ExamResult> {
        expect((await this.start(2)).statusCode).toBe(200);
        const order = body<{ subject_order: { id: number }[] }>(await get(`/subject/order-list?exam_id=${examId}`)).data
          .subject_order;
        for (const { id } of order) {
          const stem = body<{ subject: { stem: string } }>(
            await get(`/subject/show-new?exam_id=${examId}&subject_id=${id}`),
          ).data.subject.stem;
          const option = right.some((r) => stem.includes(r)) ? 'A' : 'B';
          const saved = await post('/answer/answer', {
            exam_id: examId,
            subject_id: id,
            answer: stem.includes('ACID') ? { kind: 'text', html: '<p>atomicity</p>' } : { kind: 'choice', option },
            client_id: randomUUID(),
            seq: 1,
            changed_at: s.t.now(),
          });
          expect(saved.statusCode, saved.body).toBe(200);
        }
        const done = await post('/monitor/finish-exam', { exam_id: examId });
        expect(done.statusCode, done.body).toBe(200);
        const result = body<ExamResult>(done).data;
        // The result page reads the same outcome again.
        expect(body<ExamResult>(await get(`/exam/result?exam_id=${examId}`)).data).toEqual(result);
        return result;
      },
      positions: async () =>
        body<RecommendData>(await get(`/exam/recommend-info?exam_id=${examId}`)).data.list.map((p) => [
          p.title,
          p.match,
        ]),
    };
  }

  it("shows the exam's own pledge in the detail, and an empty one (the standard pledge) when none is set", async () => {
    const own = await candidate(await published(draft('Pledged', { pledge: 'I will work alone.\nNo notes.' })));
    expect(await own.show()).toMatchObject({ pledge: 'I will work alone.\nNo notes.', id_photo_missing: false });
    const plain = await candidate(await published(draft('Plain')));
    expect((await plain.show()).pledge).toBe('');
  });

  it("answers the score and whether the result passes when show_score is 'score'", async () => {
    const examId = await published(draft('Shows score', { passing: { kind: 'percent', min_percent: 60 } }));
    const low = await candidate(examId);
    expect(await low.take('four')).toMatchObject({ show_score: 'score', score: 4, max_score: 10, passed: false });
    // 4 of 10 clears the Junior bar (0.3) only: it comes first, then the others by how far the result reaches
    // toward each (the best match first, not the highest bar).
    expect(await low.positions()).toEqual([
      ['Junior', 100],
      ['Middle', 80],
      ['Senior', 44],
    ]);
    // 60 % of 10 is exactly the bar: it passes.
    const high = await candidate(examId);
    expect(await high.take('six')).toMatchObject({ score: 6, max_score: 10, passed: true });

    // Without a rule, nobody passes or fails.
    const noRule = await candidate(await published(draft('No rule')));
    expect(await noRule.take('four', 'six')).toMatchObject({ show_score: 'score', score: 10, passed: null });
  });

  it("answers only passed or not when show_score is 'pass', by points or by percent, never the score", async () => {
    const byPoints = await published(
      draft('Pass by points', { show_score: 'pass', passing: { kind: 'points', min_points: 5 } }),
    );
    const six = await candidate(byPoints);
    expect(await six.take('six')).toMatchObject({ show_score: 'pass', score: null, max_score: null, passed: true });
    const four = await candidate(byPoints);
    expect(await four.take('four')).toMatchObject({ show_score: 'pass', score: null, max_score: null, passed: false });
    // The order still follows the fit, but no match percentage gives the ratio away.
    expect(await four.positions()).toEqual([
      ['Junior', null],
      ['Senior', null],
      ['Middle', null],
    ]);

    const byPercent = await published(
      draft('Pass by percent', { show_score: 'pass', passing: { kind: 'percent', min_percent: 70 } }),
    );
    expect(await (await candidate(byPercent)).take('six')).toMatchObject({ passed: false });
    expect(await (await candidate(byPercent)).take('four', 'six')).toMatchObject({ passed: true });
  });

  it("answers neither score nor pass when show_score is 'none', and recommends in the author's order", async () => {
    const examId = await published(
      draft('Told later', { show_score: 'none', passing: { kind: 'points', min_points: 1 } }),
    );
    const c = await candidate(examId);
    const result = await c.take('four');
    expect(result).toMatchObject({ show_score: 'none', score: null, max_score: null, passed: null, answered: 2 });
    expect(await c.positions()).toEqual([
      ['Senior', null],
      ['Middle', null],
      ['Junior', null],
    ]);
  });

  it('leaves a fail undecided while answers wait for a grader, and passes at once when the bar is reached', async () => {
    const d = draft('With a grader', {
      show_score: 'pass',
      passing: { kind: 'percent', min_percent: 50 },
      sections: [
        {
          kind: 'linetest',
          title: '',
          items: [
            { question_id: q.four, points: 4 },
            { question_id: q.six, points: 6 },
          ],
        },
        { kind: 'major', title: '', items: [{ question_id: q.qa, points: 10 }] },
      ],
    });
    const examId = await published(d);
    // 6 of 20 (the Q&A's 10 included) is short of 50 % but a grader may add up to 10: undecided.
    const short = await candidate(examId);
    expect(await short.take('six')).toMatchObject({ passed: null, pending_manual: 1 });
    // 10 of 20 is already 50 %: grading can only add.
    const reached = await candidate(examId);
    expect(await reached.take('four', 'six')).toMatchObject({ passed: true, pending_manual: 1 });
  });

  it('refuses entering an exam that requires an ID photo until the invitation has one, and tells the detail', async () => {
    const examId = await published(draft('ID photo needed', { id_photo_required: true }));
    const c = await candidate(examId);
    expect((await c.show()).id_photo_missing).toBe(true);
    // The device checks may start; the exam itself may not.
    expect((await c.start()).statusCode).toBe(200);
    const refused = await c.start(2);
    expect([refused.statusCode, body(refused).code]).toEqual([409, 'id_photo_missing']);
    expect(body<{ attempt: { phase: number } }>(await c.start()).data.attempt.phase).toBe(1);

    // Staff add the ID photo to the invitation (as the proctor console does): the exam opens.
    const form = multipart(
      { exam_id: String(examId), phone: c.phone },
      { name: 'id.jpg', type: 'image/jpeg', data: facePhoto('a'), field: 'id_photo' },
    );
    const set = await s.t.app.inject({
      method: 'POST',
      url: '/api/admin/proctor/id-photo',
      ...form,
      headers: { ...form.headers, authorization: `Bearer ${s.admin}` },
    });
    expect(set.statusCode, set.body).toBe(200);
    expect((await c.show()).id_photo_missing).toBe(false);
    const entered = await c.start(2);
    expect(entered.statusCode, entered.body).toBe(200);
    expect(body<{ attempt: { phase: number } }>(entered).data.attempt.phase).toBe(2);

    // An exam that does not require one lets a candidate without a photo in.
    const free = await candidate(await published(draft('No ID photo')));
    expect((await free.show()).id_photo_missing).toBe(false);
    expect((await free.start(2)).statusCode).toBe(200);
  }, 60_000);

  it("lets the author's preview of an exam that requires an ID photo in without one", async () => {
    const examId = await published(draft('Preview without photo', { id_photo_required: true }));
    const p = await ok<PreviewData>(api.examEditorPreview, { exam_id: examId });
    const preview = asCandidate(p.token, examId, p.anid);
    expect((await preview.show()).id_photo_missing).toBe(false);
    expect((await preview.start(2)).statusCode).toBe(200);
  });
});
