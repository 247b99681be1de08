import { randomUUID } from 'node:crypto';
import { QuestionType, type AnswerValue } from '@examhall/contract';
import { describe, expect, it } from 'vitest';
import { fillQuestionKinds } from '../db/migrations/008_question_kind.js';
import { body } from '../test/app.js';
import { candidateApp } from '../test/examScenario.js';
import { testedDialects } from '../test/db.js';
import { enterExam } from '../test/checks.js';

const PHONE = '13800138000';
const OTHER = '13700137000';

describe.each(await testedDialects())('a stored question that no longer parses, on %s', (dialect) => {
  const s = candidateApp(dialect, { each: true, phone: PHONE, login: false });

  const get = (url: string, tok: string) => s.t.app.inject(`/api${url}${url.includes('?') ? '&' : '?'}auth=${tok}`);
  const post = (url: string, payload: object, tok: string) =>
    s.t.app.inject({ method: 'POST', url: `/api${url}?auth=${tok}`, payload });
  const save = (tok: string, subject_id: number, answer: AnswerValue) =>
    post(
      '/answer/answer',
      { exam_id: s.examId, subject_id, answer, client_id: randomUUID(), seq: 1, changed_at: s.t.now() },
      tok,
    );
  /** Logs a candidate in, enters the exam and answers their order list. */
  const enter = async (phone: string, invitation: number) => {
    const tok = await s.t.loginCandidate(phone);
    expect((await enterExam(s.t, tok, s.examId, invitation)).statusCode).toBe(200);
    const order = body<{ subject_order: { id: number; type: number }[] }>(
      await get(`/subject/order-list?exam_id=${s.examId}`, tok),
    ).data.subject_order;
    return { tok, order };
  };
  /** The exam's stored rows of a type (what candidates are served), read or changed directly. */
  const rows = (type: number) =>
    s.t.db.handle.db
      .selectFrom('questions')
      .select(['id', 'content', 'answer_key'])
      .where('exam_id', '=', s.examId)
      .where('type', '=', type)
      .execute();
  const setContent = (type: number, content: string) =>
    s.t.db.handle.db
      .updateTable('questions')
      .set({ content })
      .where('exam_id', '=', s.examId)
      .where('type', '=', type)
      .execute();

  it('answers 422 question_invalid naming the question for show-new and answer, serves the others, and sees a fix', async () => {
    const [single] = await rows(QuestionType.single);
    expect(single).toBeDefined();
    // Options gone, so the key's option points nowhere: the row no longer fits its kind.
    await setContent(QuestionType.single, JSON.stringify({ stem: '<p>broken</p>' }));

    const { tok, order } = await enter(PHONE, s.anid);
    const broken = order.find((q) => q.type === QuestionType.single)!;
    const fine = order.find((q) => q.type === QuestionType.multiple)!;

    const shown = await get(`/subject/show-new?exam_id=${s.examId}&subject_id=${broken.id}`, tok);
    expect(shown.statusCode).toBe(422);
    expect(body(shown)).toMatchObject({ status: 'error', code: 'question_invalid', data: null });
    expect(body(shown).msg).toContain(`question ${broken.id} `);
    expect(body(shown).msg).toContain('content.options');

    const saved = await save(tok, broken.id, { kind: 'choice', option: 'B' });
    expect(saved.statusCode).toBe(422);
    expect(body(saved)).toMatchObject({ code: 'question_invalid' });
    expect(body(saved).msg).toContain(`question ${broken.id} `);

    // The section call leaves it out and names it; the rest of the section is served.
    const section = body<{ list: { subject: { id: number } }[]; invalid: number[] }>(
      await get(`/subject/show-section?exam_id=${s.examId}&section=linetest`, tok),
    ).data;
    expect(section.invalid).toEqual([broken.id]);
    expect(section.list.map((d) => d.subject.id)).toContain(fine.id);
    expect(section.list.map((d) => d.subject.id)).not.toContain(broken.id);

    // One broken question takes nothing else down.
    expect((await get(`/subject/show-new?exam_id=${s.examId}&subject_id=${fine.id}`, tok)).statusCode).toBe(200);
    expect((await save(tok, fine.id, { kind: 'multi', options: ['A', 'C'] })).statusCode).toBe(200);

    // A second candidate meets the same error, not a poisoned cache of something else.
    const otherAnid = await s.t.invite(s.examId, OTHER);
    const other = await enter(OTHER, otherAnid);
    const otherShown = await get(`/subject/show-new?exam_id=${s.examId}&subject_id=${broken.id}`, other.tok);
    expect(body(otherShown)).toMatchObject({ code: 'question_invalid' });

    // The row repaired: seen once the cached version's time-to-live has passed, by every candidate.
    await setContent(QuestionType.single, single!.content);
    s.t.advance(11_000);
    const repaired = await get(`/subject/show-new?exam_id=${s.examId}&subject_id=${broken.id}`, other.tok);
    expect(repaired.statusCode).toBe(200);
    expect(body<{ subject: { options: unknown[] } }>(repaired).data.subject.options).toHaveLength(4);
    expect((await save(tok, broken.id, { kind: 'choice', option: 'B' })).statusCode).toBe(200);
  });

  it('reports a key that is not JSON, and still lets the candidate submit (the question scores 0)', async () => {
    await s.t.db.handle.db
      .updateTable('questions')
      .set({ answer_key: '{not json' })
      .where('exam_id', '=', s.examId)
      .where('type', '=', QuestionType.trueFalse)
      .execute();
    const { tok, order } = await enter(PHONE, s.anid);
    const broken = order.find((q) => q.type === QuestionType.trueFalse)!;
    const shown = await get(`/subject/show-new?exam_id=${s.examId}&subject_id=${broken.id}`, tok);
    expect(shown.statusCode).toBe(422);
    expect(body(shown)).toMatchObject({ code: 'question_invalid' });
    expect(body(shown).msg).toContain(`question ${broken.id} no longer fits its type: key: not valid JSON`);

    const single = order.find((q) => q.type === QuestionType.single)!;
    expect((await save(tok, single.id, { kind: 'choice', option: 'B' })).statusCode).toBe(200);
    const submitted = await post('/monitor/finish-exam', { exam_id: s.examId }, tok);
    expect(submitted.statusCode).toBe(200);
    expect(body<{ score: number }>(submitted).data.score).toBe(5);
    expect(s.t.logs.join('')).toContain('question no longer parses');
  });

  it('gives rows stored before kinds their kind from type and section (migration 008)', async () => {
    const db = s.t.db.handle.db;
    await db.updateTable('questions').set({ kind: '' }).where('exam_id', '=', s.examId).execute();
    await fillQuestionKinds(db);
    const kinds = await db
      .selectFrom('questions')
      .innerJoin('exam_sections', 'exam_sections.id', 'questions.section_id')
      .select(['questions.type', 'questions.kind', 'exam_sections.kind as section'])
      .where('questions.exam_id', '=', s.examId)
      .execute();
    expect(kinds.length).toBeGreaterThan(0);
    const byType = (type: number, section: string) => [
      ...new Set(kinds.filter((k) => k.type === type && k.section === section).map((k) => k.kind)),
    ];
    expect(byType(QuestionType.gradient, 'evaluation')).toEqual(['evaluation']);
    expect(byType(QuestionType.gradient, 'major')).toEqual(['gradient']);
    expect(byType(QuestionType.fillBlank, 'major')).toEqual(['fill_blank']);
    expect(byType(QuestionType.trueFalse, 'linetest')).toEqual(['true_false']);
    expect(kinds.every((k) => k.kind !== '')).toBe(true);
  });
});
