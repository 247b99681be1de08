import { randomUUID } from 'node:crypto';
import {
  AnswerEvent,
  ExamMode,
  QUESTION_TYPE_DISPLAY_ORDER,
  QuestionType,
  type AnswerValue,
  type Subject,
} from '@examhall/contract';
import { describe, expect, it } from 'vitest';
import { body } from '../test/app.js';
import { candidateApp } from '../test/examScenario.js';
import { testedDialects } from '../test/db.js';
import { enterExam } from '../test/checks.js';

const PHONE = '13800138000';
const OTHER = '13700137000';

/** The right answer to each demo question type, as a candidate would give it. */
const RIGHT: Partial<Record<number, AnswerValue>> = {
  [QuestionType.single]: { kind: 'choice', option: 'B' },
  [QuestionType.multiple]: { kind: 'multi', options: ['A', 'C'] },
  [QuestionType.indefinite]: { kind: 'multi', options: ['A', 'B', 'D'] },
  [QuestionType.trueFalse]: { kind: 'choice', option: 'A' },
  [QuestionType.fillBlank]: { kind: 'blanks', blanks: ['404', '500'] },
  [QuestionType.gradient]: { kind: 'choice', option: 'A' },
  [QuestionType.reading]: {
    kind: 'subs',
    subs: { '1': { kind: 'choice', option: 'B' }, '2': { kind: 'choice', option: 'A' } },
  },
  [QuestionType.listening]: { kind: 'subs', subs: { '1': { kind: 'choice', option: 'B' } } },
  [QuestionType.qa]: {
    kind: 'text',
    html: '<p>Atomicity, consistency, isolation, durability.</p><script>alert(1)</script>',
    files: [],
  },
  [QuestionType.programmingQa]: { kind: 'code', language: 'python', code: 'def pal(s):\n    return s == s[::-1]\n' },
  [QuestionType.programming]: {
    kind: 'code',
    language: 'cpp',
    code: '#include <iostream>\nint main(){long long a,b;std::cin>>a>>b;std::cout<<a+b;}',
  },
};

describe.each(await testedDialects())('the candidate exam on %s', (dialect) => {
  const s = candidateApp(dialect, { each: true, phone: PHONE });

  const get = (url: string, tok = s.token) => s.t.app.inject(`/api${url}${url.includes('?') ? '&' : '?'}auth=${tok}`);
  const post = (url: string, payload: object, tok = s.token) =>
    s.t.app.inject({ method: 'POST', url: `/api${url}?auth=${tok}`, payload });
  const start = async (phase?: 2, tok = s.token) =>
    body<{ attempt: { id: number; phase: number; create_time: number | null; end_time: number | null } }>(
      phase
        ? await enterExam(s.t, tok, s.examId, s.anid)
        : await post('/monitor/start-exam', { exam_id: s.examId, anid: s.anid }, tok),
    ).data.attempt;
  const save = (subject_id: number, answer: AnswerValue | undefined, seq: number, extra: object = {}, tok = s.token) =>
    post(
      '/answer/answer',
      { exam_id: s.examId, subject_id, answer, client_id: randomUUID(), seq, changed_at: s.t.now(), ...extra },
      tok,
    );
  const order = async () =>
    body<{ subject_order: { id: number; type: number; order_num: number; isAnswered: number; section: string }[] }>(
      await get(`/subject/order-list?exam_id=${s.examId}`),
    ).data.subject_order;

  it('shows the exam detail with its permissions, device-check flags and section counts, then "failed to get exam detail" for a wrong pair', async () => {
    const res = await get(`/exam/show?id=${s.examId}&anid=${s.anid}`);
    expect(res.statusCode).toBe(200);
    const d = body<Record<string, unknown>>(res).data;
    for (const f of [
      'id',
      'time',
      'is_enterprise_logo',
      'ico_name',
      'systemLogoPath',
      'is_paste',
      'is_copy_question',
      'is_upload_file',
      'cutting_times',
      'is_skip_camera',
      'is_skip_microphone',
      'is_skip_screen',
      'is_skip_phone',
      'is_close_camera',
      'is_close_microphone',
      'is_close_screen',
      'is_close_phone',
    ]) {
      expect(d, f).toHaveProperty(f);
    }
    expect(d).toMatchObject({
      time: 60,
      userData: { create_time: null, phase: null },
      countNum: { linetest: 5, major: 6, evaluation: 2 },
    });
    const wrong = await get(`/exam/show?id=${s.examId}&anid=${s.anid + 99}`);
    expect(wrong.statusCode).toBe(404);
    expect(body(wrong)).toMatchObject({ code: 'exam_detail_missing', msg: 'failed to get exam detail' });
  });

  it('starts in the monitor phase, starts the clock on entering the exam, and resumes the same attempt', async () => {
    const first = await start();
    expect(first).toMatchObject({ phase: 1, create_time: null, end_time: null });
    expect(body(await get(`/subject/order-list?exam_id=${s.examId}`)).code).toBe('exam_not_started');
    const entered = await start(2);
    expect(entered).toMatchObject({
      id: first.id,
      phase: 2,
      create_time: s.t.now(),
      end_time: s.t.now() + 60 * 60_000,
    });
    s.t.advance(5_000);
    expect(await start()).toMatchObject({ id: first.id, phase: 2, create_time: entered.create_time });
    const detail = body<{ userData: { create_time: number; phase: number } }>(
      await get(`/exam/show?id=${s.examId}&anid=${s.anid}`),
    ).data;
    expect(detail.userData).toEqual({ create_time: entered.create_time, phase: 2 });
  });

  it('lists questions section by section, each by type in display order, and never sends answer keys', async () => {
    await start(2);
    const list = await order();
    const rank = (type: number) => QUESTION_TYPE_DISPLAY_ORDER.indexOf(type as QuestionType);
    expect(list.map((q) => q.order_num)).toEqual(list.map((_, i) => i + 1));
    // Numbers run through one section before the next (the demo has both sections, linetest first).
    expect([...new Set(list.map((q) => q.section))]).toEqual(['linetest', 'major']);
    for (let i = 1; i < list.length; i++) {
      if (list[i]!.section === list[i - 1]!.section) {
        expect(rank(list[i]!.type)).toBeGreaterThanOrEqual(rank(list[i - 1]!.type));
      }
    }
    expect(new Set(list.map((q) => q.type))).toEqual(new Set(QUESTION_TYPE_DISPLAY_ORDER));
    for (const q of list) {
      const res = await get(`/subject/show-new?exam_id=${s.examId}&subject_id=${q.id}`);
      expect(res.statusCode).toBe(200);
      const text = res.body;
      for (const secret of [
        'answer_key',
        '"key"',
        '"scores"',
        '"cases"',
        '"rubric"',
        'listening-beeps',
        '"dimension"',
        '1000000000 1000000000',
      ]) {
        expect(text, `${q.type} leaks ${secret}`).not.toContain(secret);
      }
      const subject = body<{ subject: Subject }>(res).data.subject;
      expect(subject).toMatchObject({ id: q.id, type: q.type, order_num: q.order_num });
    }
  });

  it("answers a section's questions in one call exactly as show-new answers each, with the candidate's answers", async () => {
    await start(2);
    const list = await order();
    const single = list.find((q) => q.type === QuestionType.single)!;
    expect((await save(single.id, { kind: 'choice', option: 'B' }, 1)).statusCode).toBe(200);
    for (const section of ['linetest', 'major'] as const) {
      const res = await get(`/subject/show-section?exam_id=${s.examId}&section=${section}`);
      expect(res.statusCode, res.body).toBe(200);
      const data = body<{ list: unknown[]; invalid: number[] }>(res).data;
      expect(data.invalid).toEqual([]);
      const ids = list.filter((q) => q.section === section).map((q) => q.id);
      expect(data.list.map((d) => (d as { subject: { id: number } }).subject.id)).toEqual(ids);
      for (const [i, id] of ids.entries()) {
        const one = body(await get(`/subject/show-new?exam_id=${s.examId}&subject_id=${id}`)).data;
        expect(data.list[i]).toEqual(one);
      }
      for (const secret of ['answer_key', '"key"', '"scores"', '"cases"', '"rubric"', '"dimension"'])
        expect(res.body, `${section} leaks ${secret}`).not.toContain(secret);
    }
    const linetest = body<{ list: { subject: { id: number }; answer: { value: unknown } | null }[] }>(
      await get(`/subject/show-section?exam_id=${s.examId}&section=${single.section}`),
    ).data.list;
    expect(linetest.find((d) => d.subject.id === single.id)!.answer?.value).toEqual({ kind: 'choice', option: 'B' });
    // Evaluation items have their own calls; a section that is none is refused, and so is a stranger.
    const evaluation = await get(`/subject/show-section?exam_id=${s.examId}&section=evaluation`);
    expect([evaluation.statusCode, body(evaluation).code]).toEqual([422, 'validation_error']);
    const stranger = await s.t.loginCandidate('13700137999');
    const refused = await get(`/subject/show-section?exam_id=${s.examId}&section=major`, stranger);
    const direct = await get(`/subject/show-new?exam_id=${s.examId}&subject_id=${single.id}`, stranger);
    expect([refused.statusCode, body(refused).code]).toEqual([direct.statusCode, body(direct).code]);
  });

  it('saves answers with receipts: idempotent by client id, newer seq wins, every change in the event log', async () => {
    await start(2);
    const q = (await order()).find((x) => x.type === QuestionType.single)!;
    const clientId = randomUUID();
    const send = (option: string, seq: number, client_id = randomUUID()) =>
      post('/answer/answer', {
        exam_id: s.examId,
        subject_id: q.id,
        answer: { kind: 'choice', option },
        client_id,
        seq,
        changed_at: s.t.now(),
      });
    const r1 = body<{ version: number; seq: number }>(await send('A', 1, clientId)).data;
    expect(r1).toMatchObject({ subject_id: q.id, client_id: clientId, seq: 1, version: 1 });
    const again = body(await send('A', 1, clientId)).data;
    expect(again).toEqual(r1);
    expect(body<{ version: number }>(await send('C', 3)).data.version).toBe(2);
    // a late retry of an older change is logged but does not overwrite the newer answer
    expect(body<{ version: number }>(await send('D', 2)).data.version).toBe(2);
    const shown = body<{ answer: { value: AnswerValue; version: number } }>(
      await get(`/subject/show-new?exam_id=${s.examId}&subject_id=${q.id}`),
    ).data;
    expect(shown.answer).toMatchObject({ value: { kind: 'choice', option: 'C' }, version: 2 });
    const events = await s.t.db.handle.db
      .selectFrom('answer_events')
      .selectAll()
      .where('question_id', '=', q.id)
      .execute();
    expect(events).toHaveLength(3);
    expect((await order()).find((x) => x.id === q.id)?.isAnswered).toBe(1);
  });

  it('counts an answer emptied again as unanswered, in the order list and the result alike', async () => {
    await start(2);
    const list = await order();
    const multi = list.find((x) => x.type === QuestionType.multiple)!;
    const single = list.find((x) => x.type === QuestionType.single)!;
    const save = (subject_id: number, answer: AnswerValue, seq: number) =>
      post('/answer/answer', {
        exam_id: s.examId,
        subject_id,
        answer,
        client_id: randomUUID(),
        seq,
        changed_at: s.t.now(),
      });
    await save(multi.id, { kind: 'multi', options: ['A'] }, 1);
    await save(single.id, { kind: 'choice', option: 'B' }, 1);
    expect((await order()).find((x) => x.id === multi.id)?.isAnswered).toBe(1);
    await save(multi.id, { kind: 'multi', options: [] }, 2);
    expect((await order()).find((x) => x.id === multi.id)?.isAnswered).toBe(0);
    const result = body<{ answered: number }>(await post('/monitor/finish-exam', { exam_id: s.examId })).data;
    expect(result.answered).toBe(1);
  });

  it('refuses a client id used already for another question with conflict, and changes no answer', async () => {
    await start(2);
    const list = await order();
    const first = list.find((x) => x.type === QuestionType.single)!;
    const second = list.find((x) => x.type === QuestionType.trueFalse)!;
    const clientId = randomUUID();
    const send = (subject_id: number, answer: AnswerValue) =>
      post('/answer/answer', {
        exam_id: s.examId,
        subject_id,
        answer,
        client_id: clientId,
        seq: 1,
        changed_at: s.t.now(),
      });
    expect((await send(first.id, RIGHT[QuestionType.single]!)).statusCode).toBe(200);
    const reused = await send(second.id, RIGHT[QuestionType.trueFalse]!);
    expect([reused.statusCode, body(reused).code]).toEqual([409, 'conflict']);
    const answerOf = async (id: number) =>
      body<{ answer: { value: AnswerValue } | null }>(
        await get(`/subject/show-new?exam_id=${s.examId}&subject_id=${id}`),
      ).data.answer;
    expect(await answerOf(second.id)).toBeNull();
    expect((await answerOf(first.id))?.value).toEqual(RIGHT[QuestionType.single]);
  });

  it('records answer events without an answer', async () => {
    await start(2);
    const q = (await order())[0]!;
    for (const event of [5, 1, 2, 4, 3]) expect((await save(q.id, undefined, 0, { event })).statusCode).toBe(200);
    const events = await s.t.db.handle.db
      .selectFrom('answer_events')
      .select(['event', 'value'])
      .where('question_id', '=', q.id)
      .orderBy('id')
      .execute();
    expect(events).toEqual([5, 1, 2, 4, 3].map((event) => ({ event, value: null })));
    expect((await save(q.id, undefined, 0)).statusCode).toBe(422);
  });

  it('refuses answers that do not fit the question, and sanitizes rich text', async () => {
    await start(2);
    const list = await order();
    const single = list.find((x) => x.type === QuestionType.single)!;
    const bad = await save(single.id, { kind: 'choice', option: 'Z' }, 1);
    expect(bad.statusCode).toBe(422);
    expect(body(bad).msg).toBe('answer.option: no such option');
    expect(body(await save(single.id, { kind: 'blanks', blanks: ['x'] }, 1)).msg).toContain("takes a 'choice' answer");
    const qa = list.find((x) => x.type === QuestionType.qa)!;
    await save(qa.id, RIGHT[QuestionType.qa], 1);
    const stored = body<{ answer: { value: { html: string } } }>(
      await get(`/subject/show-new?exam_id=${s.examId}&subject_id=${qa.id}`),
    ).data;
    expect(stored.answer.value.html).toBe('<p>Atomicity, consistency, isolation, durability.</p>');
    const foreign = await save(qa.id, { kind: 'text', html: 'x', files: ['answers/1/1/other.png'] }, 2);
    expect(body(foreign).msg).toBe('answer.files: answers/1/1/other.png is not a file uploaded for this answer');
  });

  it('scores every type right when every answer is right, the judged submit included, and shows the result with positions', async () => {
    await start(2);
    const list = await order();
    for (const q of list) expect((await save(q.id, RIGHT[q.type], 1)).statusCode).toBe(200);
    const prog = list.find((q) => q.type === QuestionType.programming)!;
    const code = (RIGHT[QuestionType.programming] as { code: string }).code;
    const job = body<{ job_id: string }>(
      await post('/answer/judge', {
        exam_id: s.examId,
        subject_id: prog.id,
        language: 'cpp',
        code,
        mode: 'submit',
        client_id: randomUUID(),
      }),
    ).data;
    let verdict: string | null = null;
    for (let i = 0; i < 300 && verdict === null; i++) {
      await new Promise((r) => setTimeout(r, 100));
      verdict = body<{ verdict: string | null }>(
        await get(`/answer/judge-status?exam_id=${s.examId}&job_id=${job.job_id}`),
      ).data.verdict;
    }
    expect(verdict).toBe('AC');
    const evaluationCount = body<{ total: number }>(await get(`/ceping/exam-line-order?exam_id=${s.examId}`)).data
      .total;
    expect(evaluationCount).toBeGreaterThan(0);
    const done = await post('/monitor/finish-exam', { exam_id: s.examId });
    expect(done.statusCode).toBe(200);
    const result = body<{
      score: number;
      max_score: number;
      answered: number;
      total: number;
      pending_manual: number;
      attempt: { phase: number };
    }>(done).data;
    // single 5, multiple 5, indefinite 5, true/false 2, reading 6, fill blank 4, listening 4, gradient 5, programming 20;
    // the maximum also counts the Q&A and programming Q&A (10 each) that wait for a grader.
    expect(result).toMatchObject({
      score: 56,
      max_score: 76,
      // Evaluation items count as questions, as on the exam page; none of them was answered here.
      answered: list.length,
      total: list.length + evaluationCount,
      pending_manual: 2,
      attempt: { phase: 3 },
    });
    expect(body(await post('/monitor/finish-exam', { exam_id: s.examId })).data).toEqual(result);
    expect(body(await get(`/exam/result?exam_id=${s.examId}`)).data).toEqual(result);
    const positions = body<{ list: { title: string; match: number }[] }>(
      await get(`/exam/recommend-info?exam_id=${s.examId}`),
    ).data.list;
    expect(positions).toHaveLength(4);
    expect(positions[0]).toMatchObject({ match: 100 });
    const fb = { exam_id: s.examId, rating: 5, content: 'smooth', client_id: randomUUID() };
    const f1 = body<{ id: number }>(await post('/exam/feedback', fb)).data;
    expect(body(await post('/exam/feedback', fb)).data).toEqual(f1);
  });

  it('gives partial credit by the documented rule and nothing for wrong answers', async () => {
    await start(2);
    const list = await order();
    const byType = (type: number) => list.find((q) => q.type === type)!.id;
    await save(byType(QuestionType.multiple), { kind: 'multi', options: ['A'] }, 1); // half of 5
    await save(byType(QuestionType.fillBlank), { kind: 'blanks', blanks: ['４０４', 'nope'] }, 1); // one of two blanks of 4
    await save(byType(QuestionType.gradient), { kind: 'choice', option: 'B' }, 1); // 3 of 5 points
    await save(byType(QuestionType.single), { kind: 'choice', option: 'A' }, 1); // wrong
    const result = body<{ score: number }>(await post('/monitor/finish-exam', { exam_id: s.examId })).data;
    expect(result.score).toBe(2.5 + 2 + 3);
  });

  it('refuses writes after the end with exam_finished, and the sweeper finishes overdue attempts by itself', async () => {
    await start(2);
    const q = (await order())[0]!;
    s.t.advance(60 * 60_000);
    expect(await s.t.services.attempts.sweepOverdue()).toBe(1);
    const late = await save(q.id, RIGHT[q.type], 1);
    expect(late.statusCode).toBe(409);
    expect(body(late).code).toBe('exam_finished');
    expect(body<{ attempt: { phase: number } }>(await get(`/exam/result?exam_id=${s.examId}`)).data.attempt.phase).toBe(
      3,
    );
  });

  it('finishes an attempt whose end passed at the moment of a write, without the sweeper', async () => {
    await start(2);
    const q = (await order())[0]!;
    s.t.advance(60 * 60_000 + 1);
    expect(body(await save(q.id, RIGHT[q.type], 1)).code).toBe('exam_finished');
    const row = await s.t.db.handle.db.selectFrom('attempts').selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({ phase: 3, finish_reason: 'timeout' });
  });

  it('keeps one candidate out of another’s attempt and out of exams they are not invited to', async () => {
    await start(2);
    const list = await order();
    await save(list[0]!.id, RIGHT[list[0]!.type], 1);
    const stranger = await s.t.loginCandidate(OTHER);
    expect(body(await get(`/exam/show?id=${s.examId}&anid=${s.anid}`, stranger)).code).toBe('exam_detail_missing');
    expect(body(await post('/monitor/start-exam', { exam_id: s.examId, anid: s.anid }, stranger)).code).toBe(
      'exam_detail_missing',
    );
    for (const res of [
      await get(`/subject/order-list?exam_id=${s.examId}`, stranger),
      await get(`/subject/show-new?exam_id=${s.examId}&subject_id=${list[0]!.id}`, stranger),
      await save(list[0]!.id, RIGHT[list[0]!.type], 9, {}, stranger),
      await get(`/exam/result?exam_id=${s.examId}`, stranger),
      await get(`/ceping/exam-line-order?exam_id=${s.examId}`, stranger),
      await post('/monitor/finish-exam', { exam_id: s.examId }, stranger),
      await get(`/exam/get-anid-info?anid=${s.anid}`, stranger),
    ]) {
      expect(res.statusCode).toBe(404);
    }
    // The exam page explains a missing or foreign invitation itself (no generic 404 page).
    expect(body(await get(`/exam/get-anid-info?anid=${s.anid}`, stranger)).code).toBe('exam_detail_missing');
    const mine = body<{ answer: { version: number } }>(
      await get(`/subject/show-new?exam_id=${s.examId}&subject_id=${list[0]!.id}`),
    ).data;
    expect(mine.answer.version).toBe(1);
  });

  it('tells in the exam list where each candidate stands: open, in progress, handed in once their time is over, absent', async () => {
    await s.t.invite(s.examId, OTHER, 0);
    const other = await s.t.loginCandidate(OTHER);
    const stateOf = async (tok: string) => {
      const res = await get('/exam/index', tok);
      expect(res.statusCode, res.body).toBe(200);
      return body<{ list: { id: number; state: string; end_at: number }[] }>(res).data.list.find(
        (e) => e.id === s.examId,
      )!;
    };
    expect((await stateOf(s.token)).state).toBe('open');
    const attempt = await start(2);
    expect((await stateOf(s.token)).state).toBe('in_progress');
    // Past the attempt's own end it counts as handed in, before the sweeper has recorded it.
    s.t.advance(attempt.end_time! - s.t.now() + 1);
    expect((await stateOf(s.token)).state).toBe('submitted');
    // The other candidate never started: absent once the window closes (a new login: tokens expire meanwhile).
    const { end_at } = await stateOf(other);
    if (s.t.now() < end_at) s.t.advance(end_at - s.t.now() + 1);
    expect((await stateOf(await s.t.loginCandidate(OTHER))).state).toBe('closed');
    expect((await stateOf(await s.t.loginCandidate(PHONE))).state).toBe('submitted');
  });

  it('lets a second invited candidate see only their own answers', async () => {
    await start(2);
    const list = await order();
    await save(list[0]!.id, RIGHT[list[0]!.type], 1);
    await s.t.invite(s.examId, OTHER, 15);
    const other = await s.t.loginCandidate(OTHER);
    const otherAnid = body<{ list: { anid: number }[] }>(await get('/exam/index', other)).data.list[0]!.anid;
    const a = body<{ attempt: { end_time: number; create_time: number } }>(
      await enterExam(s.t, other, s.examId, otherAnid),
    ).data.attempt;
    expect(a.end_time - a.create_time).toBe(75 * 60_000); // 60 minutes plus 15 of extra time
    const theirs = body<{ answer: unknown }>(
      await get(`/subject/show-new?exam_id=${s.examId}&subject_id=${list[0]!.id}`, other),
    ).data;
    expect(theirs.answer).toBeNull();
  });

  it('holds the listening play limit against direct and concurrent calls, and serves audio only through a signed link', async () => {
    await start(2);
    const q = (await order()).find((x) => x.type === QuestionType.listening)!;
    const info = body<{ play_limit: number; play_count: number; url: null }>(
      await post('/subject/get-audio-info', { exam_id: s.examId, subject_id: q.id }),
    ).data;
    expect(info).toMatchObject({ play_limit: 2, play_count: 0, url: null });
    const plays = await Promise.all(
      Array.from({ length: 6 }, () => post('/subject/audio-play', { exam_id: s.examId, subject_id: q.id })),
    );
    expect(plays.filter((p) => p.statusCode === 200)).toHaveLength(2);
    expect(plays.filter((p) => body(p).code === 'play_limit_reached')).toHaveLength(4);
    const url = body<{ url: string }>(plays.find((p) => p.statusCode === 200)!).data.url;
    const audio = await s.t.app.inject(url);
    expect(audio.statusCode).toBe(200);
    expect(audio.headers['content-type']).toBe('audio/wav');
    expect(audio.rawPayload.subarray(0, 4).toString()).toBe('RIFF');
    // Change one character in the middle of the signature: a different signature, not another spelling of it.
    const at = url.length - 10;
    const forged = await s.t.app.inject(url.slice(0, at) + (url[at] === 'x' ? 'y' : 'x') + url.slice(at + 1));
    expect(forged.statusCode).toBe(403);
    s.t.advance(10 * 60_000);
    expect((await s.t.app.inject(url)).statusCode).toBe(404);
    expect(
      body<{ play_count: number }>(await post('/subject/get-audio-info', { exam_id: s.examId, subject_id: q.id })).data
        .play_count,
    ).toBe(2);
  });

  it('runs the evaluation section through its own calls and scores its dimensions', async () => {
    await start(2);
    const card = body<{ data: { id: number; isAnswered: number }[]; total: number }>(
      await get(`/ceping/exam-line-order?exam_id=${s.examId}`),
    ).data;
    expect(card.total).toBe(2);
    const [first, second] = card.data;
    const shown = body<{
      subject: { stem: string };
      prev_id: number | null;
      next_id: number | null;
      answer: string | null;
    }>(await get(`/ceping/exam-show-new?exam_id=${s.examId}&subject_id=${first!.id}`)).data;
    expect(shown).toMatchObject({ prev_id: null, next_id: second!.id, answer: null });
    expect(JSON.stringify(shown)).not.toContain('scores');
    const answer = (subject_id: number, option: string) =>
      post('/ceping/answer', {
        exam_id: s.examId,
        subject_id,
        option,
        client_id: randomUUID(),
        seq: 1,
        changed_at: s.t.now(),
      });
    // Nothing answered yet: each dimension says so, rather than scoring its lowest.
    expect(
      body<{ dimensions: unknown[] }>(await post('/ceping/exam-finish', { exam_id: s.examId })).data.dimensions,
    ).toEqual([
      { dimension: 'teamwork', score: 0, max: 5, answered: 0, items: 1 },
      { dimension: 'resilience', score: 0, max: 5, answered: 0, items: 1 },
    ]);
    expect(body<{ version: number }>(await answer(first!.id, 'A')).data.version).toBe(1);
    expect(body<{ version: number }>(await answer(second!.id, 'C')).data.version).toBe(1);
    expect((await answer(second!.id, 'Z')).statusCode).toBe(422);
    expect(
      body<{ data: { isAnswered: number }[] }>(await get(`/ceping/exam-line-order?exam_id=${s.examId}`)).data.data.map(
        (d) => d.isAnswered,
      ),
    ).toEqual([1, 1]);
    const dims = body<{ dimensions: unknown[] }>(await post('/ceping/exam-finish', { exam_id: s.examId })).data
      .dimensions;
    expect(dims).toEqual([
      { dimension: 'teamwork', score: 5, max: 5, answered: 1, items: 1 },
      { dimension: 'resilience', score: 3, max: 5, answered: 1, items: 1 },
    ]);
    // Evaluation items are not answered through /answer/answer, but their answer events are recorded there.
    const refused = await save(first!.id, { kind: 'choice', option: 'A' }, 2);
    expect([refused.statusCode, body(refused).code]).toEqual([404, 'not_found']);
    for (const event of [AnswerEvent.enter, AnswerEvent.prevAndNext])
      expect((await save(second!.id, undefined, 0, { event })).statusCode).toBe(200);
    const events = await s.t.db.handle.db
      .selectFrom('answer_events')
      .select(['event', 'value'])
      .where('question_id', '=', second!.id)
      .where('event', 'is not', null)
      .orderBy('id')
      .execute();
    expect(events).toEqual([
      { event: AnswerEvent.enter, value: null },
      { event: AnswerEvent.prevAndNext, value: null },
    ]);
    // The events leave the item's answer as it was.
    expect(
      body<{ answer: string | null }>(await get(`/ceping/exam-show-new?exam_id=${s.examId}&subject_id=${second!.id}`))
        .data.answer,
    ).toBe('C');
    // The profile comes with the result, at the submit and whenever the result is read again.
    const submitted = body<{ evaluation: unknown }>(await post('/monitor/finish-exam', { exam_id: s.examId })).data;
    expect(submitted.evaluation).toEqual(dims);
    expect(body<{ evaluation: unknown }>(await get(`/exam/result?exam_id=${s.examId}`)).data.evaluation).toEqual(dims);
  });

  it('records network risk events in a hash chain that verifies, and submits when screen switches run out', async () => {
    const attempt = await start(2);
    // The device checks came first in the chain.
    const checks = (await s.t.services.risk.verifyChain(attempt.id)).records;
    const risk = (r: number, client_id = randomUUID()) =>
      s.t.app.inject({
        method: 'POST',
        url: `/api/monitor/record-risk?auth=${s.token}`,
        payload: `exam_id=${s.examId}&risk=${r}&trigger_time=${s.t.now()}&client_id=${client_id}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
    const offline = await risk(10);
    expect(offline.statusCode).toBe(200);
    const again = randomUUID();
    const r20 = body<{ id: number }>(await risk(20, again)).data;
    expect(body<{ id: number }>(await risk(20, again)).data.id).toBe(r20.id);
    expect(await s.t.services.risk.verifyChain(attempt.id)).toEqual({ ok: true, records: checks + 2, brokenAt: null });
    await s.t.db.handle.db.updateTable('risk_records').set({ detail: 'tampered' }).where('risk', '=', 10).execute();
    expect((await s.t.services.risk.verifyChain(attempt.id)).ok).toBe(false);
    const cuts = [];
    for (let i = 0; i < 4; i++) cuts.push(body<{ cuts_left: number; phase: number }>(await risk(1)).data);
    expect(cuts.map((c) => c.cuts_left)).toEqual([2, 1, 0, -1]);
    expect(cuts.at(-1)?.phase).toBe(3);
    expect((await risk(99)).statusCode).toBe(422);
  });

  it('repeats practice runs and keeps the one attempt of the other modes', async () => {
    const a1 = await start(2);
    await post('/monitor/finish-exam', { exam_id: s.examId });
    expect(await start()).toMatchObject({ id: a1.id, phase: 3 });
    await s.t.db.handle.db.updateTable('exams').set({ mode: ExamMode.simulate }).execute();
    s.t.advance(11_000); // the catalog rereads the exam
    const a2 = await start();
    expect(a2.id).not.toBe(a1.id);
    expect(a2.phase).toBe(1);
    await start(2);
    expect(body<{ practice: boolean }>(await post('/monitor/finish-exam', { exam_id: s.examId })).data.practice).toBe(
      true,
    );
  });

  it('gives a longTime attempt the whole window', async () => {
    await s.t.db.handle.db.updateTable('exams').set({ mode: ExamMode.longTime }).execute();
    const exam = await s.t.db.handle.db.selectFrom('exams').selectAll().executeTakeFirstOrThrow();
    expect((await start(2)).end_time).toBe(exam.end_at);
  });
});

describe.each(await testedDialects())('the overdue sweeper on %s', (dialect) => {
  const s = candidateApp(dialect, { phone: PHONE, app: { sweepIntervalMs: 2_000 } });

  it('finishes an attempt left open past its end within 10 s, with no browser', async () => {
    await enterExam(s.t, s.token, s.examId, s.anid);
    s.t.advance(60 * 60_000);
    const deadline = Date.now() + 10_000;
    let phase = 2;
    while (Date.now() < deadline && phase !== 3) {
      await new Promise((r) => setTimeout(r, 200));
      phase = (await s.t.db.handle.db.selectFrom('attempts').select('phase').executeTakeFirstOrThrow()).phase;
    }
    expect(phase).toBe(3);
  });
});
