import { randomUUID } from 'node:crypto';
import {
  api,
  type BankQuestionView,
  type CandidateListData,
  type EditorExamDetail,
  type EditorExamListData,
  type ExamDefinitionInput,
  type ExamDetail,
  type ExamVersionsData,
  type PreviewData,
  type PreviewKeysData,
  type ProctorExamsData,
  type ProctorGridData,
  type QuestionBodyInput,
  requiredSteps,
  stepSkippable,
} from '@examhall/contract';
import { describe, expect, it } from 'vitest';
import { drawForAttempt, drawWithoutReplacement } from '../services/draw.js';
import { body } from '../test/app.js';
import { lastAuditEntry } from '../test/auditLog.js';
import { testedDialects } from '../test/db.js';
import { adminApp } from '../test/examScenario.js';
import { candidateCalls, editorExams, openDraft } from '../test/editorExams.js';
import { enterExam } from '../test/checks.js';
import { PY_SUM, SUM_PROBLEM } from '../test/programs.js';
import { hashToken } from '../services/tokens.js';

const opts = (...texts: string[]) => texts.map((content, i) => ({ id: String.fromCharCode(65 + i), content }));

/** Right on every case but the second hidden one (-5 5), where a is negative. */
const PY_FAILS_2 = 'a, b = map(int, input().split())\nprint(a + b if a >= 0 else 1)\n';

/** A single-choice question whose right option is A. */
const single = (stem: string): QuestionBodyInput => ({
  kind: 'single',
  content: { stem: `<p>${stem}</p>`, options: opts('right', 'wrong') },
  key: { option: 'A' },
});

/** The a + b programming question with `reference` as its Python reference solution. */
const programming = (reference: string): QuestionBodyInput => ({
  ...SUM_PROBLEM,
  key: { ...SUM_PROBLEM.key, reference: { language: 'python', source: reference } },
});

describe('random draws', () => {
  it('draws 5 of 10 close to uniformly over 1,000 draws, never the same question twice', () => {
    const pool = Array.from({ length: 10 }, (_, i) => i);
    const counts = new Array<number>(10).fill(0);
    for (let n = 0; n < 1000; n++) {
      const drawn = drawWithoutReplacement(pool, 5);
      expect(new Set(drawn).size).toBe(5);
      for (const q of drawn) counts[q]! += 1;
    }
    // Each question is in half the draws: 500 expected. Pearson's statistic over the 10 counts stays under
    // 21.67 (chi-square, 9 degrees of freedom, p = 0.01); drawing without replacement spreads counts even
    // less than independent picks would, so a fair draw fails this far less than once in a hundred runs.
    const chi = counts.reduce((sum, c) => sum + (c - 500) ** 2 / 500, 0);
    expect(chi).toBeLessThan(21.67);
    expect(Math.min(...counts)).toBeGreaterThan(400);
  });

  it('gives every attempt all fixed questions and a fresh draw of each draw section, in pool order unless shuffled', () => {
    const version = {
      draws: true,
      sections: [
        { id: 1, kind: 'linetest' as const, order_num: 1, draw_count: null, question_ids: [1, 2] },
        { id: 2, kind: 'major' as const, order_num: 2, draw_count: 2, question_ids: [10, 11, 12, 13] },
      ],
    };
    const ids = drawForAttempt(version, false)!;
    expect(ids.slice(0, 2)).toEqual([1, 2]);
    const drawn = ids.slice(2);
    expect(drawn).toHaveLength(2);
    expect(drawn).toEqual([...drawn].sort((a, b) => a - b));
    expect(drawForAttempt({ ...version, draws: false, sections: [version.sections[0]!] }, false)).toBeNull();
    const shuffled = drawForAttempt(version, true)!;
    expect(shuffled).toHaveLength(4);
    expect(shuffled.filter((id) => id < 10).sort()).toEqual([1, 2]);
  });
});

describe.each(await testedDialects())('the exam editor on %s', (dialect) => {
  const s = adminApp(dialect, { seed: false });
  const { call, ok } = s;
  let phoneNo = 0;

  const bankQuestion = async (question: QuestionBodyInput, extra: Record<string, unknown> = {}) =>
    (await ok<BankQuestionView>(api.bankQuestionCreate, { question, default_score: 5, ...extra })).id;

  /** A draft open now for a day. */
  const draft = (name: string, sections: ExamDefinitionInput['sections'], extra: Partial<ExamDefinitionInput> = {}) =>
    openDraft(s.t.now(), name, sections, extra);

  const detail = (examId: number) => ok<EditorExamDetail>(api.examEditorDetail, { exam_id: examId });

  const { examWith, published, invited } = editorExams(
    () => s.t,
    () => s.admin,
  );

  /** A candidate invited to an exam, logged in, with helpers for the candidate calls. */
  async function candidate(examId: number, phone = `1390000${String(++phoneNo).padStart(4, '0')}`) {
    const inv = await invited(examId, phone);
    return asCandidate(inv.token, examId, inv.anid, phone);
  }

  function asCandidate(token: string, examId: number, anid: number, phone = '') {
    const { get, post } = candidateCalls(s.t, token);
    return {
      token,
      anid,
      phone,
      get,
      post,
      start: async (phase?: 2) =>
        body<{ attempt: { id: number; phase: number; create_time: number | null; end_time: number | null } }>(
          phase
            ? await enterExam(s.t, token, examId, anid)
            : await post('/monitor/start-exam', { exam_id: examId, anid }),
        ).data.attempt,
      order: async () =>
        body<{ subject_order: { id: number; type: number }[] }>(await get(`/subject/order-list?exam_id=${examId}`)).data
          .subject_order,
      stem: async (id: number) =>
        body<{ subject: { stem: string } }>(await get(`/subject/show-new?exam_id=${examId}&subject_id=${id}`)).data
          .subject.stem,
      answer: (id: number, option: string) =>
        post('/answer/answer', {
          exam_id: examId,
          subject_id: id,
          answer: { kind: 'choice', option },
          client_id: randomUUID(),
          seq: 1,
          changed_at: s.t.now(),
        }),
      finish: async () =>
        body<{ score: number; max_score: number; total: number }>(
          await post('/monitor/finish-exam', { exam_id: examId }),
        ).data,
    };
  }

  it('creates, saves a draft (a stale revision is refused), publishes version 1 and shows what differs from it', async () => {
    const q1 = await bankQuestion(single('first'));
    const { exam_id: examId } = await ok<{ exam_id: number }>(api.examEditorCreate, { name: 'Editor basics' });
    const fresh = await detail(examId);
    expect(fresh).toMatchObject({ status: 'draft', revision: 0, published_version_id: null, draft_changed: true });
    expect(fresh.versions).toEqual([]);
    // A new exam a first-time author can run: open from this minute for a week, the camera and microphone optional,
    // the screen and the phone off.
    expect(fresh.draft.start_at).toBe(Math.floor(s.t.now() / 60_000) * 60_000);
    expect(fresh.draft.end_at - fresh.draft.start_at).toBe(7 * 86_400_000);
    expect(
      requiredSteps(fresh.draft.settings).map((st) => [st.key, stepSkippable(fresh.draft.settings, st.key)]),
    ).toEqual([
      ['camera', true],
      ['microphone', true],
      ['signature', false],
    ]);
    const d = draft('Editor basics', [
      { kind: 'linetest', title: 'Aptitude', items: [{ question_id: q1, points: 5 }] },
    ]);
    const saved = await ok<EditorExamDetail>(api.examEditorSaveDraft, { exam_id: examId, revision: 0, draft: d });
    expect(saved.revision).toBe(1);
    const stale = await call(api.examEditorSaveDraft, { exam_id: examId, revision: 0, draft: d });
    expect([stale.http, stale.code]).toEqual([409, 'revision_stale']);
    const invalid = await call(api.examEditorSaveDraft, {
      exam_id: examId,
      revision: 1,
      draft: { ...d, end_at: d.start_at - 1, time_minutes: 0 },
    });
    expect(invalid.http).toBe(422);
    const staleProbe = await call(api.examEditorPublish, { exam_id: examId, revision: 0 });
    expect(staleProbe.code).toBe('revision_stale');
    const pub = await ok<{ version: { number: number; per_candidate: number } }>(api.examEditorPublish, {
      exam_id: examId,
      revision: 1,
    });
    expect(pub.version).toMatchObject({ number: 1, per_candidate: 1 });
    const after = await detail(examId);
    expect(after).toMatchObject({ status: 'published', draft_changed: false, live: { time_minutes: 60 } });
    const audit = await lastAuditEntry(s.t, 'exam.publish', examId);
    expect(JSON.parse(audit.after!)).toMatchObject({ number: 1, status: 'published' });
    expect(JSON.parse(audit.before!)).toMatchObject({ status: 'draft', published_version_id: null });
  });

  it('keeps an attempt on the version it started on while a new candidate gets the next version', async () => {
    const [q1, q2, q3] = [
      await bankQuestion(single('one')),
      await bankQuestion(single('two')),
      await bankQuestion(single('three')),
    ];
    const d = draft('Versions', [
      {
        kind: 'linetest',
        title: '',
        items: [
          { question_id: q1, points: 5 },
          { question_id: q2, points: 5 },
        ],
      },
    ]);
    const examId = await published(d);
    const a = await candidate(examId);
    await a.start(2);
    const first = await a.order();
    expect(first).toHaveLength(2);

    // Edit the published exam: only its draft changes.
    const before = await detail(examId);
    const edited = {
      ...d,
      sections: [
        {
          kind: 'linetest',
          title: '',
          items: [
            { question_id: q1, points: 5 },
            { question_id: q3, points: 10 },
          ],
        },
      ],
    } satisfies ExamDefinitionInput;
    const saved = await ok<EditorExamDetail>(api.examEditorSaveDraft, {
      exam_id: examId,
      revision: before.revision,
      draft: edited,
    });
    expect(saved.draft_changed).toBe(true);
    expect((await a.order()).map((q) => q.id)).toEqual(first.map((q) => q.id));
    await ok(api.examEditorPublish, { exam_id: examId, revision: saved.revision });
    const versions = (await ok<ExamVersionsData>(api.examEditorVersions, { exam_id: examId })).list;
    expect(versions.map((v) => [v.number, v.attempts])).toEqual([
      [2, 0],
      [1, 1],
    ]);

    const b = await candidate(examId);
    await b.start(2);
    const second = await b.order();
    expect((await Promise.all(second.map((q) => b.stem(q.id)))).sort()).toEqual(['<p>one</p>', '<p>three</p>']);
    // The first candidate still has version 1, and answers to it are taken and scored by version 1.
    expect((await a.order()).map((q) => q.id)).toEqual(first.map((q) => q.id));
    expect((await Promise.all(first.map((q) => a.stem(q.id)))).sort()).toEqual(['<p>one</p>', '<p>two</p>']);
    for (const q of first) expect((await a.answer(q.id, 'A')).statusCode).toBe(200);
    // A question of version 2 is not the first candidate's.
    const foreign = second.find((q) => !first.some((f) => f.id === q.id))!;
    expect((await a.answer(foreign.id, 'A')).statusCode).toBe(404);
    expect(await a.finish()).toMatchObject({ score: 10, max_score: 10, total: 2 });
    for (const q of second) await b.answer(q.id, 'A');
    expect(await b.finish()).toMatchObject({ score: 15, max_score: 15, total: 2 });
  });

  it('draws per candidate: draws differ, survive a reload and a new login, and a drawn-out question is refused', async () => {
    const fixed = await bankQuestion(single('fixed'));
    const pool: number[] = [];
    for (let i = 0; i < 10; i++) pool.push(await bankQuestion(single(`pool ${i}`), { tags: ['draw-pool'] }));
    const examId = await published(
      draft('Draws', [
        { kind: 'linetest', title: 'Fixed', items: [{ question_id: fixed, points: 4 }] },
        { kind: 'major', title: 'Drawn', draw: { count: 5, points: 2, tags: ['draw-pool'] } },
      ]),
    );
    const people = await Promise.all(Array.from({ length: 6 }, () => candidate(examId)));
    // Before an attempt, the exam counts what a candidate gets.
    const shown = body<{ countNum: Record<string, number> }>(
      await people[0]!.get(`/exam/show?id=${examId}&anid=${people[0]!.anid}`),
    ).data;
    expect(shown.countNum).toEqual({ linetest: 1, major: 5, evaluation: 0 });
    const draws: number[][] = [];
    for (const p of people) {
      await p.start(2);
      const ids = (await p.order()).map((q) => q.id);
      expect(ids).toHaveLength(6);
      draws.push(ids);
    }
    const stems = await Promise.all(draws[0]!.map((id) => people[0]!.stem(id)));
    expect(stems).toContain('<p>fixed</p>');
    expect(stems.filter((s) => s.startsWith('<p>pool')).length).toBe(5);
    // Six draws of 5 of 10 (252 possible) are all the same with a chance of 252^-5.
    expect(new Set(draws.map((d) => [...d].sort().join())).size).toBeGreaterThan(1);

    const first = people[0]!;
    expect((await first.order()).map((q) => q.id)).toEqual(draws[0]);
    s.t.advance(61_000); // a new SMS code may be asked for after a minute
    const again = asCandidate(await s.t.loginCandidate(first.phone), examId, first.anid);
    expect((await again.order()).map((q) => q.id)).toEqual(draws[0]);
    const shownAfter = body<{ countNum: Record<string, number> }>(
      await again.get(`/exam/show?id=${examId}&anid=${first.anid}`),
    ).data;
    expect(shownAfter.countNum).toEqual({ linetest: 1, major: 5, evaluation: 0 });
    // A question of the version's pool that this candidate did not draw is not theirs.
    const version = await s.t.db.handle.db.selectFrom('questions').select('id').where('exam_id', '=', examId).execute();
    const notDrawn = version.map((r) => r.id).find((id) => !draws[0]!.includes(id))!;
    expect((await again.answer(notDrawn, 'A')).statusCode).toBe(404);
    expect(body(await again.get(`/subject/show-new?exam_id=${examId}&subject_id=${notDrawn}`)).code).toBe('not_found');
  });

  it('shuffles questions and options per candidate when the exam says so, the same on every reload', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 6; i++) {
      ids.push(
        await bankQuestion({
          kind: 'single',
          content: { stem: `<p>shuffle ${i}</p>`, options: opts('a', 'b', 'c', 'd', 'e') },
          key: { option: 'A' },
        }),
      );
    }
    const examId = await published(
      draft(
        'Shuffled',
        [{ kind: 'linetest', title: '', items: ids.map((question_id) => ({ question_id, points: 1 })) }],
        {
          shuffle_questions: true,
          shuffle_options: true,
        },
      ),
    );
    const people = await Promise.all(Array.from({ length: 5 }, () => candidate(examId)));
    const orders: string[] = [];
    const optionOrders: string[] = [];
    for (const p of people) {
      await p.start(2);
      const list = await p.order();
      const stems = await Promise.all(list.map((q) => p.stem(q.id)));
      orders.push(stems.join());
      const show = async () =>
        body<{ subject: { stem: string; options: { id: string }[] } }>(
          await p.get(
            `/subject/show-new?exam_id=${examId}&subject_id=${list.find((_, i) => stems[i] === '<p>shuffle 0</p>')!.id}`,
          ),
        )
          .data.subject.options.map((o) => o.id)
          .join('');
      const options = await show();
      expect(await show()).toBe(options);
      expect([...options].sort().join('')).toBe('ABCDE');
      optionOrders.push(options);
      expect(await p.order()).toEqual(list);
    }
    // Five candidates with one order of 6! = 720 (or of 5! = 120 for the options): all alike only by a fluke.
    expect(new Set(orders).size).toBeGreaterThan(1);
    expect(new Set(optionOrders).size).toBeGreaterThan(1);
  });

  it('refuses a draw larger than its pool, and a question of another team', async () => {
    const q = await bankQuestion(single('lonely'), { tags: ['tiny-pool'] });
    const { examId, revision } = await examWith(
      draft('Too few', [{ kind: 'linetest', title: '', draw: { count: 2, points: 1, tags: ['tiny-pool'] } }]),
    );
    const res = await call(api.examEditorPublish, { exam_id: examId, revision });
    expect([res.http, res.code]).toEqual([422, 'draw_pool_too_small']);
    expect(res.msg).toContain('pool holds 1');
    const team = await ok<{ id: number }>(api.teamCreate, { name: `other ${randomUUID().slice(0, 6)}` });
    const theirs = await bankQuestion(single('theirs'), { team_id: team.id });
    const mixed = await examWith(
      draft('Mixed', [
        {
          kind: 'linetest',
          title: '',
          items: [
            { question_id: q, points: 1 },
            { question_id: theirs, points: 1 },
          ],
        },
      ]),
    );
    const refused = await call(api.examEditorPublish, { exam_id: mixed.examId, revision: mixed.revision });
    expect([refused.http, refused.msg]).toEqual([404, `no such question ${theirs}`]);
  });

  it('blocks publishing while a reference solution fails a case, naming the question and the case', async () => {
    const bad = await bankQuestion(programming(PY_FAILS_2));
    const { examId, revision } = await examWith(
      draft('Reference', [{ kind: 'major', title: '', items: [{ question_id: bad, points: 20 }] }]),
    );
    const res = await call(api.examEditorPublish, { exam_id: examId, revision });
    expect([res.http, res.code]).toEqual([422, 'reference_solution_failed']);
    expect(res.msg).toContain(`question ${bad}`);
    expect(res.msg).toContain('hidden case 2 (2): WA');
    expect((await detail(examId)).published_version_id).toBeNull();
    // Fixed in the bank, the same draft publishes.
    const current = await ok<BankQuestionView>(api.bankQuestion, { question_id: bad });
    await ok(api.bankQuestionUpdate, {
      question_id: bad,
      revision: current.revision,
      question: programming(PY_SUM),
      default_score: 20,
    });
    await ok(api.examEditorPublish, { exam_id: examId, revision });
  });

  it('moves the end of running attempts with a live change of length and closing time', async () => {
    const q = await bankQuestion(single('live'));
    const examId = await published(
      draft('Live', [{ kind: 'linetest', title: '', items: [{ question_id: q, points: 1 }] }]),
    );
    const a = await candidate(examId);
    const started = await a.start(2);
    expect(started.end_time! - started.create_time!).toBe(60 * 60_000);
    const before = await detail(examId);
    const longer = await ok<{ attempts_moved: number; time_minutes: number }>(api.examEditorLiveChange, {
      exam_id: examId,
      time_minutes: 90,
    });
    expect(longer).toMatchObject({ attempts_moved: 1, time_minutes: 90 });
    expect((await a.start()).end_time! - started.create_time!).toBe(90 * 60_000);
    const closing = s.t.now() + 30 * 60_000;
    await ok(api.examEditorLiveChange, { exam_id: examId, end_at: closing });
    expect((await a.start()).end_time).toBe(closing);
    const after = await detail(examId);
    // The draft follows, so the next publish keeps the change; the editor must reload (new revision).
    expect(after).toMatchObject({ draft_changed: false, live: { end_at: closing, time_minutes: 90 } });
    expect(after.draft).toMatchObject({ end_at: closing, time_minutes: 90 });
    expect(after.revision).toBeGreaterThan(before.revision);
    const extra = await ok<{ attempts_moved: number }>(api.examEditorLiveChange, {
      exam_id: examId,
      extra: [{ anid: a.anid, minutes: 15 }],
    });
    expect(extra.attempts_moved).toBe(1);
    expect((await a.start()).end_time).toBe(closing + 15 * 60_000);
    const unpublished = await examWith(draft('Not yet', []));
    expect((await call(api.examEditorLiveChange, { exam_id: unpublished.examId, time_minutes: 5 })).code).toBe(
      'exam_not_published',
    );
  });

  it('previews the draft through the real candidate calls, shows its keys, and counts it nowhere', async () => {
    const q = await bankQuestion(single('preview me'));
    const { examId } = await examWith(
      draft('Preview', [{ kind: 'linetest', title: '', items: [{ question_id: q, points: 3 }] }], {
        start_at: s.t.now() + 7 * 86_400_000,
        end_at: s.t.now() + 8 * 86_400_000,
        settings: { is_skip_camera: 0 },
      }),
    );
    const p = await ok<PreviewData>(api.examEditorPreview, { exam_id: examId });
    const c = asCandidate(p.token, examId, p.anid);
    expect((await c.get(`/exam/show?id=${examId}&anid=${p.anid}`)).statusCode).toBe(200);
    // The preview names its candidate: the one its token is of.
    const owner = await s.t.db.handle.db
      .selectFrom('auth_tokens')
      .select('subject_id')
      .where('token_hash', '=', hashToken(p.token))
      .executeTakeFirstOrThrow();
    expect(p.candidate_id).toBe(owner.subject_id);
    // The preview candidate's profile is complete, so the candidate pages open the exam, not the profile form.
    const info = body<{ info: number; userInfo: { name: string | null } }>(await c.get('/user/get-info')).data;
    expect(info.info).toBe(1);
    expect(info.userInfo.name).toContain('预览');
    // Every check the draft requires may be skipped in its preview, the face check included.
    const shown = body<ExamDetail>(await c.get(`/exam/show?id=${examId}&anid=${p.anid}`)).data;
    expect(requiredSteps(shown).map((st) => [st.key, stepSkippable(shown, st.key)])).toEqual([
      ['camera', true],
      ['microphone', true],
      ['screenSharing', true],
      ['mobileDevice', true],
      ['signature', false],
    ]);
    const entered = await enterExam(s.t, p.token, examId, p.anid, {
      skip: ['camera', 'microphone', 'screenSharing', 'mobileDevice'],
    });
    expect(entered.statusCode, entered.body).toBe(200);
    const [only] = await c.order();
    expect(await c.stem(only!.id)).toBe('<p>preview me</p>');
    expect((await c.answer(only!.id, 'A')).statusCode).toBe(200);
    const keys = await ok<PreviewKeysData>(api.examEditorPreviewKeys, { exam_id: examId, version_id: p.version_id });
    expect(keys.list).toEqual([
      { subject_id: only!.id, bank_question_id: q, kind: 'single', score: 3, key: { option: 'A' } },
    ]);
    expect(await c.finish()).toMatchObject({ score: 3, max_score: 3 });
    const grid = await ok<ProctorGridData>(api.proctorGrid, { exam_id: examId });
    expect(grid.tiles).toEqual([]);
    const overview = await ok<ProctorExamsData>(api.proctorExams);
    expect(overview.list.find((e) => e.id === examId)?.attempts ?? 0).toBe(0);
    // Nor is its candidate one of the directory's people.
    const directory = await ok<CandidateListData>(api.candidateList, { page_size: 200 });
    expect(directory.list.map((d) => d.id)).not.toContain(p.candidate_id);
    expect((await detail(examId)).published_version_id).toBeNull();
    // A published version's keys are not a preview's.
    const pub = await examWith(
      draft('Published', [{ kind: 'linetest', title: '', items: [{ question_id: q, points: 1 }] }]),
    );
    await ok(api.examEditorPublish, { exam_id: pub.examId, revision: pub.revision });
    const pubVersion = (await detail(pub.examId)).published_version_id!;
    expect((await call(api.examEditorPreviewKeys, { exam_id: pub.examId, version_id: pubVersion })).http).toBe(404);
    // Previewing again starts afresh on a new preview version.
    const again = await ok<PreviewData>(api.examEditorPreview, { exam_id: examId });
    expect(again.version_id).not.toBe(p.version_id);
    expect(again.anid).toBe(p.anid);
    const fresh = asCandidate(again.token, examId, again.anid);
    expect((await fresh.start()).phase).toBe(1);
  });

  it('copies and archives exams, and lists them with paging, sort and filters', async () => {
    const q = await bankQuestion(single('copy me'));
    const source = await published(
      draft('Original paper', [{ kind: 'linetest', title: '', items: [{ question_id: q, points: 2 }] }]),
    );
    const { exam_id: copyId } = await ok<{ exam_id: number }>(api.examEditorCopy, { exam_id: source });
    const copy = await detail(copyId);
    expect(copy).toMatchObject({ status: 'draft', published_version_id: null, versions: [] });
    expect(copy.draft).toMatchObject({
      name: 'Original paper (copy)',
      sections: (await detail(source)).draft.sections,
    });

    await ok(api.examEditorArchive, { exam_id: source });
    expect((await detail(source)).status).toBe('archived');
    expect((await call(api.examEditorSaveDraft, { exam_id: source, revision: 99, draft: copy.draft })).code).toBe(
      'exam_archived',
    );
    const archived = await ok<EditorExamListData>(api.examEditorList, { status: 'archived' });
    expect(archived.list.map((e) => e.id)).toContain(source);
    expect(archived.list.every((e) => e.status === 'archived')).toBe(true);
    await ok(api.examEditorArchive, { exam_id: source, archived: false });
    expect((await detail(source)).status).toBe('published');

    const named = await ok<EditorExamListData>(api.examEditorList, {
      name: 'original PAPER',
      sort: 'name',
      order: 'asc',
    });
    expect(named.list.map((e) => e.name)).toEqual(['Original paper', 'Original paper (copy)']);
    const paged = await ok<EditorExamListData>(api.examEditorList, { page: 1, page_size: 1, sort: 'id', order: 'asc' });
    expect(paged.list).toHaveLength(1);
    expect(paged.total).toBeGreaterThan(1);
    // An author of no team sees no team's exams, and an exam out of reach is answered like a missing one.
    const author = await s.t.loginStaff('author');
    expect((await ok<EditorExamListData>(api.examEditorList, {}, author)).total).toBe(0);
    const hidden = await call(api.examEditorDetail, { exam_id: source }, author);
    expect([hidden.http, hidden.msg]).toEqual([404, `no such exam ${source}`]);
  });

  it('invites phones once each, and candidates see an exam only once it is published', async () => {
    const q = await bankQuestion(single('invite'));
    const { examId, revision } = await examWith(
      draft('Invitations', [{ kind: 'linetest', title: '', items: [{ question_id: q, points: 1 }] }]),
    );
    const phone = '13912345678';
    const first = await ok<{ list: { anid: number; created: boolean }[] }>(api.examEditorInvite, {
      exam_id: examId,
      phones: [{ phone }, { phone: '139 1234 5678' }],
      extra_minutes: 10,
    });
    expect(first.list).toHaveLength(1);
    expect(first.list[0]!.created).toBe(true);
    const again = await ok<{ list: { anid: number; created: boolean }[] }>(api.examEditorInvite, {
      exam_id: examId,
      phones: [{ phone }],
    });
    expect(again.list).toEqual([{ phone, area_code: '86', anid: first.list[0]!.anid, created: false }]);
    expect((await call(api.examEditorInvite, { exam_id: examId, phones: [{ phone: '12' }] })).http).toBe(422);
    const c = asCandidate(await s.t.loginCandidate(phone), examId, first.list[0]!.anid);
    const listed = async () =>
      body<{ list: { id: number; time: number }[] }>(await c.get('/exam/index')).data.list.filter(
        (e) => e.id === examId,
      );
    expect(await listed()).toEqual([]);
    const early = await c.get(`/exam/show?id=${examId}&anid=${first.list[0]!.anid}`);
    expect([early.statusCode, body(early).code]).toEqual([404, 'exam_detail_missing']);
    await ok(api.examEditorPublish, { exam_id: examId, revision });
    expect((await c.get(`/exam/show?id=${examId}&anid=${first.list[0]!.anid}`)).statusCode).toBe(200);
    expect((await listed()).map((e) => e.time)).toEqual([70]);
  });
});
