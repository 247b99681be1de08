import { randomUUID } from 'node:crypto';
import {
  api,
  type BankQuestionView,
  type ExamResult,
  type ExplanationsData,
  type PreviewData,
  type QuestionBodyInput,
} from '@examhall/contract';
import { describe, expect, it } from 'vitest';
import { body } from '../test/app.js';
import { enterExam } from '../test/checks.js';
import { testedDialects } from '../test/db.js';
import { candidateCalls, editorExams, openDraft } from '../test/editorExams.js';
import { adminApp } from '../test/examScenario.js';

const opts = (...texts: string[]) => texts.map((content, i) => ({ id: String.fromCharCode(65 + i), content }));

const SINGLE: QuestionBodyInput = {
  kind: 'single',
  content: { stem: '<p>2, 4, 8, ?</p>', options: opts('12', '16') },
  key: { option: 'B' },
};
const EXPLANATION = { text: '<p>Each number doubles the one before.</p>', options: { A: '12 adds 4, not doubling.' } };

describe.each(await testedDialects())('explanations after submitting on %s', (dialect) => {
  const s = adminApp(dialect, { seed: false });
  const { ok } = s;
  let phoneNo = 0;
  const { examWith, published, invited } = editorExams(
    () => s.t,
    () => s.admin,
  );

  /** An exam of one explained and one plain question, published with `extra` definition fields. */
  async function exam(name: string, extra: Record<string, unknown>) {
    const explained = (
      await ok<BankQuestionView>(api.bankQuestionCreate, {
        question: SINGLE,
        explanation: EXPLANATION,
        default_score: 5,
      })
    ).id;
    const plain = (await ok<BankQuestionView>(api.bankQuestionCreate, { question: SINGLE, default_score: 5 })).id;
    const examId = await published(
      openDraft(
        s.t.now(),
        name,
        [
          {
            kind: 'linetest',
            title: '',
            items: [
              { question_id: explained, points: 5 },
              { question_id: plain, points: 5 },
            ],
          },
        ],
        extra,
      ),
    );
    // The bank question changes after publishing: the version keeps what it was published with.
    const bank = await ok<BankQuestionView>(api.bankQuestion, { question_id: explained });
    await ok(api.bankQuestionUpdate, {
      question_id: explained,
      revision: bank.revision,
      question: SINGLE,
      explanation: { text: '<p>Changed later.</p>', options: {} },
      default_score: 5,
    });
    return examId;
  }

  /** A candidate invited to the exam who enters it and answers its first question with `option`. */
  async function candidate(examId: number, option: string) {
    const inv = await invited(examId, `1391111${String(++phoneNo).padStart(4, '0')}`);
    const { get, post } = candidateCalls(s.t, inv.token);
    expect((await enterExam(s.t, inv.token, examId, inv.anid)).statusCode).toBe(200);
    const order = body<{ subject_order: { id: number }[] }>(await get(`/subject/order-list?exam_id=${examId}`)).data
      .subject_order;
    const saved = await post('/answer/answer', {
      exam_id: examId,
      subject_id: order[0]!.id,
      answer: { kind: 'choice', option },
      client_id: randomUUID(),
      seq: 1,
      changed_at: s.t.now(),
    });
    expect(saved.statusCode, saved.body).toBe(200);
    return {
      order,
      explanations: () => get(`/exam/explanations?exam_id=${examId}`),
      subject: (id: number) => get(`/subject/show-new?exam_id=${examId}&subject_id=${id}`),
      finish: async () => body<ExamResult>(await post('/monitor/finish-exam', { exam_id: examId })).data,
      result: async () => body<ExamResult>(await get(`/exam/result?exam_id=${examId}`)).data,
    };
  }

  it('a practice exam shows them by default, only after submitting, as the version froze them', async () => {
    const examId = await exam('Practice', { mode: 0 });
    const c = await candidate(examId, 'A');
    // While the attempt runs, neither the call nor the question carries them.
    const early = await c.explanations();
    expect([early.statusCode, body(early).code]).toEqual([409, 'exam_not_finished']);
    const shown = await c.subject(c.order[0]!.id);
    expect(shown.statusCode).toBe(200);
    expect(shown.body).not.toContain('doubles');
    expect(shown.body).not.toContain('12 adds 4');
    expect((await c.finish()).explanations).toBe(true);
    expect((await c.result()).explanations).toBe(true);
    const res = await c.explanations();
    expect(res.statusCode, res.body).toBe(200);
    expect(body<ExplanationsData>(res).data.list).toEqual([
      {
        id: c.order[0]!.id,
        type: 1,
        order_num: 1,
        stem: '<p>2, 4, 8, ?</p>',
        options: opts('12', '16'),
        chosen: ['A'],
        explanation: EXPLANATION,
      },
    ]);
  });

  it('other exams do not, unless their setting says so; a practice exam may turn them off', async () => {
    const hidden = await candidate(await exam('Exam', { mode: 1 }), 'B');
    expect((await hidden.finish()).explanations).toBe(false);
    const refused = await hidden.explanations();
    expect([refused.statusCode, body(refused).code]).toEqual([403, 'explanations_hidden']);

    const shown = await candidate(await exam('Exam shown', { mode: 1, show_explanations: true }), 'B');
    expect((await shown.finish()).explanations).toBe(true);
    expect(body<ExplanationsData>(await shown.explanations()).data.list.map((q) => q.chosen)).toEqual([['B']]);

    const off = await candidate(await exam('Practice off', { mode: 0, show_explanations: false }), 'B');
    expect((await off.finish()).explanations).toBe(false);
    expect((await off.explanations()).statusCode).toBe(403);
  });

  it("a staff member's preview shows them after submitting, whatever the exam's setting", async () => {
    const q = (
      await ok<BankQuestionView>(api.bankQuestionCreate, {
        question: SINGLE,
        explanation: EXPLANATION,
        default_score: 5,
      })
    ).id;
    const { examId } = await examWith(
      openDraft(s.t.now(), 'Preview', [{ kind: 'linetest', title: '', items: [{ question_id: q, points: 5 }] }], {
        mode: 1,
      }),
    );
    const p = await ok<PreviewData>(api.examEditorPreview, { exam_id: examId });
    const { get, post } = candidateCalls(s.t, p.token);
    expect((await enterExam(s.t, p.token, examId, p.anid)).statusCode).toBe(200);
    expect((await get(`/exam/explanations?exam_id=${examId}`)).statusCode).toBe(409);
    expect(body<ExamResult>(await post('/monitor/finish-exam', { exam_id: examId })).data.explanations).toBe(true);
    const res = await get(`/exam/explanations?exam_id=${examId}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(body<ExplanationsData>(res).data.list.map((e) => [e.chosen, e.explanation])).toEqual([[[], EXPLANATION]]);
  });
});
