import {
  api,
  BANK_LIMITS,
  type BankBulkResult,
  type BankFolderNode,
  type BankFolderTree,
  type BankQuestionListData,
  type BankQuestionView,
  type BankVerification,
  type CallDef,
  type QuestionBodyInput,
} from '@examhall/contract';
import { strToU8, zipSync } from 'fflate';
import { PNG } from 'pngjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { beepsWav, wavSeconds } from '../storage/wav.js';
import { body } from '../test/app.js';
import { testedDialects } from '../test/db.js';
import { adminApp } from '../test/examScenario.js';
import { HTML_PAGE } from '../test/media.js';
import { multipart } from '../test/multipart.js';
import { SUM_PROBLEM } from '../test/programs.js';

const opts = (...texts: string[]) => texts.map((content, i) => ({ id: String.fromCharCode(65 + i), content }));

/** Right on every case but the second hidden one (-5 5), where a is negative. */
const PY_FAILS_2 = 'a, b = map(int, input().split())\nprint(a + b if a >= 0 else 1)\n';

/** One valid body of every kind. */
const BODIES: Record<string, QuestionBodyInput> = {
  single: { kind: 'single', content: { stem: '<p>2, 4, 8, ?</p>', options: opts('12', '16') }, key: { option: 'B' } },
  multiple: {
    kind: 'multiple',
    content: { stem: '<p>以下哪些是质数？</p>', options: opts('2', '9', '11') },
    key: { options: ['A', 'C'] },
  },
  indefinite: {
    kind: 'indefinite',
    content: { stem: '<p>Which lie on the Yangtze?</p>', options: opts('Wuhan', 'Xi’an') },
    key: { options: ['A'] },
  },
  fill_blank: {
    kind: 'fill_blank',
    content: { stem: '<p>Status ___ means not found.</p>', blanks: 1 },
    key: { blanks: [['404']] },
  },
  qa: { kind: 'qa', content: { stem: '<p>Describe ACID.</p>' }, key: { rubric: 'four properties' } },
  programming: SUM_PROBLEM,
  true_false: {
    kind: 'true_false',
    content: { stem: '<p>Every square is a rectangle.</p>', options: opts('True', 'False') },
    key: { option: 'A' },
  },
  programming_qa: {
    kind: 'programming_qa',
    content: { stem: '<p>Write a palindrome check.</p>', languages: ['python'] },
    key: { rubric: 'two pointers' },
  },
  reading: {
    kind: 'reading',
    content: {
      stem: '<p>Read and answer.</p>',
      passage: '<p>Examhall is an online written-test platform.</p>',
      subs: [{ id: 1, type: 1, score: 3, stem: '<p>What is it?</p>', options: opts('A test platform', 'A game') }],
    },
    key: { subs: { '1': { option: 'A' } } },
  },
  listening: {
    kind: 'listening',
    content: {
      stem: '<p>Listen and answer.</p>',
      audio: { play_limit: 2, duration_s: 3.3 },
      subs: [{ id: 1, type: 1, score: 4, stem: '<p>How many beeps?</p>', options: opts('3', '5') }],
    },
    key: { audio: { key: 'bank/audio/beeps.wav' }, subs: { '1': { option: 'B' } } },
  },
  gradient: {
    kind: 'gradient',
    content: { stem: '<p>When your team disagrees, you:</p>', options: opts('discuss', 'decide', 'ignore') },
    key: { scores: { A: 5, B: 3, C: 1 } },
  },
  evaluation: {
    kind: 'evaluation',
    content: { stem: '<p>I enjoy working in a team.</p>', options: opts('agree', 'disagree'), dimension: 'teamwork' },
    key: { scores: { A: 5, B: 1 } },
  },
};

/** A picture: a real 2x2 PNG. */
function png(): Buffer {
  const img = new PNG({ width: 2, height: 2 });
  img.data.fill(200);
  return PNG.sync.write(img);
}

/** Patches a zip's central directory so its first entry claims to unpack to `size` bytes (a lying zip bomb). */
function claimSize(zip: Uint8Array, size: number): Buffer {
  const buf = Buffer.from(zip);
  const central = buf.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
  buf.writeUInt32LE(size, central + 24);
  return buf;
}

describe.each(await testedDialects())('the question bank on %s', (dialect) => {
  const s = adminApp(dialect, { seed: false });
  let author: string;
  let teamA: number;
  let teamB: number;

  /** Calls a catalogue entry as `token`: query for GET, JSON body otherwise. */
  const call = <T = unknown>(c: CallDef, token: string, input: Record<string, unknown> = {}) =>
    s.call<T>(c, input, token);

  const upload = async <T = unknown>(c: CallDef, token: string, file: Parameters<typeof multipart>[1]) => {
    const form = multipart({}, file);
    const res = await s.t.app.inject({
      method: 'POST',
      url: `/api${c.path}`,
      payload: form.payload,
      headers: { ...form.headers, authorization: `Bearer ${token}` },
    });
    return { ...body<T>(res), http: res.statusCode };
  };

  const create = async (question: QuestionBodyInput, extra: Record<string, unknown> = {}, token = s.admin) => {
    const res = await call<BankQuestionView>(api.bankQuestionCreate, token, { question, default_score: 5, ...extra });
    expect(res.http, res.msg).toBe(200);
    return res.data;
  };

  const qa = (stem: string, extra: Record<string, unknown> = {}, token = s.admin) =>
    create({ kind: 'qa', content: { stem }, key: {} }, extra, token);

  const folder = async (name: string, parent_id?: number, token = s.admin, team_id?: number) => {
    const res = await call<BankFolderNode>(api.bankFolderCreate, token, { name, parent_id, team_id });
    expect(res.http, res.msg).toBe(200);
    return res.data;
  };

  /** Freezes a bank question into a published version of a new exam, as publishing does. */
  async function useInExam(bankQuestionId: number, preview = 0) {
    const db = s.t.db.handle.db;
    const now = s.t.now();
    const exam = await db
      .insertInto('exams')
      .values({
        name: 'uses',
        description: '',
        mode: 1,
        time_minutes: 30,
        start_at: now,
        end_at: now + 3_600_000,
        settings: '{}',
        created_at: now,
        draft: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const version = await db
      .insertInto('exam_versions')
      .values({ exam_id: exam.id, number: 1, definition: '{}', published_at: now, published_by: null, preview })
      .returning('id')
      .executeTakeFirstOrThrow();
    const section = await db
      .insertInto('exam_sections')
      .values({ exam_id: exam.id, kind: 'major', title: '', order_num: 1, version_id: version.id })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('questions')
      .values({
        exam_id: exam.id,
        section_id: section.id,
        kind: 'qa',
        type: 5,
        order_num: 1,
        score: 5,
        content: '{"stem":"<p>x</p>"}',
        answer_key: '{}',
        bank_question_id: bankQuestionId,
        version_id: version.id,
      })
      .execute();
  }

  beforeAll(async () => {
    author = await s.t.loginStaff('author');
    const db = s.t.db.handle.db;
    teamA = await s.t.team('A');
    teamB = await s.t.team('B');
    await db.updateTable('staff').set({ team_id: teamA }).where('role', '=', 'author').execute();
  });

  it('creates, reads and updates a question of every kind, and audits each change', async () => {
    for (const [kind, question] of Object.entries(BODIES)) {
      const created = await create(
        question,
        { difficulty: 2, tags: ['t1', 't1', 'x'], knowledge_points: ['kp'] },
        author,
      );
      expect(created).toMatchObject({
        kind,
        team_id: teamA,
        folder_id: null,
        difficulty: 2,
        tags: ['t1', 'x'],
        revision: 1,
      });
      expect(created.question.kind).toBe(kind);
      const read = await call<BankQuestionView>(api.bankQuestion, author, { question_id: created.id });
      expect(read.http).toBe(200);
      expect(read.data.question).toEqual(created.question);
      const updated = await call<BankQuestionView>(api.bankQuestionUpdate, author, {
        question_id: created.id,
        revision: 1,
        question,
        difficulty: 4,
        tags: [],
        default_score: 7,
      });
      expect(updated.http, updated.msg).toBe(200);
      expect(updated.data).toMatchObject({ revision: 2, difficulty: 4, tags: [], default_score: 7 });
      const entries = await s.t.db.handle.db
        .selectFrom('audit_log')
        .select(['action', 'before', 'after'])
        .where('object_kind', '=', 'question')
        .where('object_id', '=', created.id)
        .orderBy('id')
        .execute();
      expect(entries.map((e) => e.action)).toEqual(['bank.question.create', 'bank.question.update']);
      expect(entries[0]!.before).toBeNull();
      expect(JSON.parse(entries[1]!.after!)).toMatchObject({ difficulty: 4, revision: 2 });
    }
  });

  it('answers 422 with the path for an invalid body, and sanitizes rich text', async () => {
    const bad = await call(api.bankQuestionCreate, s.admin, {
      question: { kind: 'single', content: { stem: '<p>x</p>', options: opts('a', 'b') }, key: { option: 'C' } },
      default_score: 1,
    });
    expect(bad.http).toBe(422);
    expect(bad.code).toBe('validation_error');
    expect(bad.msg).toMatch(/^question\.key\.option: /);
    const noOptions = await call(api.bankQuestionCreate, s.admin, {
      question: { kind: 'multiple', content: { stem: '<p>x</p>', options: [] }, key: { options: ['A', 'B'] } },
      default_score: 1,
    });
    expect(noOptions.http).toBe(422);
    expect(noOptions.msg).toMatch(/^question\.content\.options/);
    const scriptOnly = await call(api.bankQuestionCreate, s.admin, {
      question: { kind: 'qa', content: { stem: '<script>alert(1)</script>' }, key: {} },
      default_score: 1,
    });
    expect(scriptOnly.http).toBe(422);
    expect(scriptOnly.msg).toMatch(/^question\.content\.stem: /);
    const cleaned = await qa(
      '<p onclick="x()">Hi <img src="/api/media/images/a.png" onerror="x()"><script>x()</script></p>',
    );
    expect(cleaned.question.content).toEqual({ stem: '<p>Hi <img src="/api/media/images/a.png" /></p>' });
  });

  it('keeps an explanation and feedback per option (sanitized), refuses feedback for no option, and audits it', async () => {
    const plain = await create(BODIES.single!, {}, author);
    expect(plain.explanation).toBeNull();
    const explanation = {
      text: '<p onclick="x()">2, 4, 8, 16: each doubles.<script>x()</script></p>',
      options: { A: '12 adds 4 once, but 8 to 12 is not doubling.', B: '' },
    };
    const made = await call<BankQuestionView>(api.bankQuestionCreate, author, {
      question: BODIES.single,
      explanation,
      default_score: 5,
    });
    expect(made.http, made.msg).toBe(200);
    // Script and handlers are removed; a blank feedback is no feedback.
    const kept = { text: '<p>2, 4, 8, 16: each doubles.</p>', options: { A: explanation.options.A } };
    expect(made.data.explanation).toEqual(kept);
    const read = await call<BankQuestionView>(api.bankQuestion, author, { question_id: made.data.id });
    expect(read.data.explanation).toEqual(kept);
    // A reading question's sub-question options are named with the sub's id.
    const reading = BODIES.reading!;
    const sub = await call<BankQuestionView>(api.bankQuestionCreate, author, {
      question: reading,
      explanation: { text: '', options: { '1.A': 'Read the first line again.' } },
      default_score: 5,
    });
    expect(sub.http, sub.msg).toBe(200);
    expect(sub.data.explanation).toEqual({ text: '', options: { '1.A': 'Read the first line again.' } });
    const noOption = await call(api.bankQuestionUpdate, author, {
      question_id: made.data.id,
      revision: 1,
      question: BODIES.single,
      explanation: { text: '', options: { C: 'there is no C' } },
      default_score: 5,
    });
    expect(noOption.http).toBe(422);
    expect(noOption.code).toBe('validation_error');
    expect(noOption.msg).toMatch(/^explanation\.options\.C: there is no option C/);
    const cleared = await call<BankQuestionView>(api.bankQuestionUpdate, author, {
      question_id: made.data.id,
      revision: 1,
      question: BODIES.single,
      explanation: { text: '<p> </p>', options: {} },
      default_score: 5,
    });
    expect(cleared.http, cleared.msg).toBe(200);
    expect(cleared.data.explanation).toBeNull();
    const audit = await s.t.db.handle.db
      .selectFrom('audit_log')
      .select(['before', 'after'])
      .where('object_kind', '=', 'question')
      .where('object_id', '=', made.data.id)
      .where('action', '=', 'bank.question.update')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(audit.before!)).toMatchObject({ explanation: kept });
    expect(JSON.parse(audit.after!)).toMatchObject({ explanation: null });
  });

  it('refuses a stale revision with 409 and keeps the newer save', async () => {
    const q = await qa('<p>revision</p>');
    const save = (revision: number, stem: string) =>
      call<BankQuestionView>(api.bankQuestionUpdate, s.admin, {
        question_id: q.id,
        revision,
        question: { kind: 'qa', content: { stem }, key: {} },
        default_score: 5,
      });
    expect((await save(1, '<p>first</p>')).http).toBe(200);
    const stale = await save(1, '<p>second</p>');
    expect(stale.http).toBe(409);
    expect(stale.code).toBe('revision_stale');
    const read = await call<BankQuestionView>(api.bankQuestion, s.admin, { question_id: q.id });
    expect(read.data.question.content).toEqual({ stem: '<p>first</p>' });
  });

  it('finds Chinese by substring, Latin in any case, % and _ literally, combined with filters', async () => {
    const f = await folder('search');
    const array = await qa('<p>给定一个整数数组 nums，返回其和。</p>', {
      folder_id: f.id,
      difficulty: 3,
      tags: ['数组'],
    });
    const inOption = await create(
      {
        kind: 'single',
        content: { stem: '<p>选择正确的说法</p>', options: opts('数组下标从 0 开始', '链表') },
        key: { option: 'A' },
      },
      { folder_id: f.id, difficulty: 1 },
    );
    const latin = await qa('<p>Find the MAXIMUM of an Array</p>', { folder_id: f.id, difficulty: 3 });
    const percent = await qa('<p>100% sure</p>', { folder_id: f.id });
    const underscore = await qa('<p>a_b</p>', { folder_id: f.id, knowledge_points: ['下划线 "quoted"'] });
    await qa('<p>100 percent</p>', { folder_id: f.id });
    await qa('<p>axb</p>', { folder_id: f.id });
    const find = async (query: Record<string, unknown>) => {
      const res = await call<BankQuestionListData>(api.bankQuestions, s.admin, {
        folder_id: f.id,
        sort: 'id',
        order: 'asc',
        ...query,
      });
      expect(res.http, res.msg).toBe(200);
      return res.data.list.map((q) => q.id);
    };
    expect(await find({ q: '数组' })).toEqual([array.id, inOption.id]);
    expect(await find({ q: '数组', kind: 'qa' })).toEqual([array.id]);
    expect(await find({ q: '数组', difficulty: 1 })).toEqual([inOption.id]);
    expect(await find({ q: '数组', tag: '数组' })).toEqual([array.id]);
    expect(await find({ q: 'maximum' })).toEqual([latin.id]);
    expect(await find({ q: 'ARRAY', difficulty: 3 })).toEqual([latin.id]);
    expect(await find({ q: '100%' })).toEqual([percent.id]);
    expect(await find({ q: 'a_b' })).toEqual([underscore.id]);
    expect(await find({ knowledge_point: '下划线 "quoted"' })).toEqual([underscore.id]);
    expect(await find({ knowledge_point: '下划线' })).toEqual([]);
    const listed = await call<BankQuestionListData>(api.bankQuestions, s.admin, { q: '整数数组' });
    expect(listed.data.list[0]).toMatchObject({
      id: array.id,
      stem: '给定一个整数数组 nums，返回其和。',
      problem: null,
    });
  });

  it('pages and sorts on the server', async () => {
    const f = await folder('paging');
    const ids: number[] = [];
    for (const d of [3, 1, 5, 2, 4]) {
      ids.push((await qa(`<p>paging ${d}</p>`, { folder_id: f.id, difficulty: d })).id);
      s.t.advance(1000);
    }
    await useInExam(ids[2]!);
    await useInExam(ids[2]!);
    await useInExam(ids[4]!);
    await useInExam(ids[4]!, 1); // a preview counts nowhere
    const page = async (query: Record<string, unknown>) =>
      (await call<BankQuestionListData>(api.bankQuestions, s.admin, { folder_id: f.id, page_size: 2, ...query })).data;
    const first = await page({ sort: 'difficulty', order: 'asc' });
    expect(first.total).toBe(5);
    expect(first.list.map((q) => q.difficulty)).toEqual([1, 2]);
    expect((await page({ sort: 'difficulty', order: 'asc', page: 3 })).list.map((q) => q.difficulty)).toEqual([5]);
    expect((await page({ sort: 'updated', order: 'desc' })).list.map((q) => q.id)).toEqual([ids[4], ids[3]]);
    expect((await page({ sort: 'id', order: 'asc' })).list.map((q) => q.id)).toEqual([ids[0], ids[1]]);
    const used = await page({ sort: 'used', order: 'desc' });
    expect(used.list.map((q) => [q.id, q.used_count])).toEqual([
      [ids[2], 2],
      [ids[4], 1],
    ]);
  });

  it('moves, tags, untags and deletes in bulk, keeping a question an exam uses', async () => {
    const from = await folder('bulk from');
    const to = await folder('bulk to');
    const a = await qa('<p>bulk a</p>', { folder_id: from.id });
    const b = await qa('<p>bulk b</p>', { folder_id: from.id, tags: ['old'] });
    const c = await qa('<p>bulk c</p>', { folder_id: from.id });
    await useInExam(c.id);
    const moved = await call<BankBulkResult>(api.bankBulkMove, s.admin, {
      question_ids: [a.id, b.id, c.id],
      folder_id: to.id,
    });
    expect(moved.data).toEqual({ done: [a.id, b.id, c.id], kept: [] });
    const tagged = await call<BankBulkResult>(api.bankBulkTag, s.admin, { question_ids: [a.id, b.id], tags: ['old'] });
    expect(tagged.data).toEqual({ done: [a.id], kept: [{ id: b.id, reason: expect.stringMatching(/already/) }] });
    const untagged = await call<BankBulkResult>(api.bankBulkUntag, s.admin, {
      question_ids: [a.id, c.id],
      tags: ['old'],
    });
    expect(untagged.data).toEqual({ done: [a.id], kept: [{ id: c.id, reason: expect.stringMatching(/none/) }] });
    const listed = await call<BankQuestionListData>(api.bankQuestions, s.admin, {
      folder_id: to.id,
      sort: 'id',
      order: 'asc',
    });
    expect(listed.data.list.map((q) => [q.id, q.tags, q.revision])).toEqual([
      [a.id, [], 4],
      [b.id, ['old'], 2],
      [c.id, [], 2],
    ]);
    const deleted = await call<BankBulkResult>(api.bankBulkDelete, s.admin, { question_ids: [a.id, b.id, c.id] });
    expect(deleted.data).toEqual({ done: [a.id, b.id], kept: [{ id: c.id, reason: 'used by 1 exam' }] });
    expect((await call(api.bankQuestion, s.admin, { question_id: a.id })).http).toBe(404);
    expect((await call(api.bankQuestion, s.admin, { question_id: c.id })).http).toBe(200);
    const audit = await s.t.db.handle.db
      .selectFrom('audit_log')
      .select('action')
      .where('object_id', '=', b.id)
      .where('object_kind', '=', 'question')
      .orderBy('id')
      .execute();
    expect(audit.map((e) => e.action)).toEqual(['bank.question.create', 'bank.question.move', 'bank.question.delete']);
    const tags = await call<{ list: { tag: string; count: number }[] }>(api.bankTags, s.admin);
    expect(tags.data.list.find((x) => x.tag === 'old')).toBeUndefined();
  });

  it('keeps the folder tree a tree: counts, no cycles, unique names, delete only when empty', async () => {
    const top = await folder('tree');
    const mid = await folder('mid', top.id);
    const leaf = await folder('leaf', mid.id);
    await qa('<p>in top</p>', { folder_id: top.id });
    await qa('<p>in leaf</p>', { folder_id: leaf.id });
    const tree = (await call<BankFolderTree>(api.bankFolders, s.admin)).data.list;
    const at = tree.findIndex((f) => f.id === top.id);
    expect(tree.slice(at, at + 3).map((f) => [f.name, f.depth, f.question_count, f.total_count])).toEqual([
      ['tree', 0, 1, 2],
      ['mid', 1, 0, 1],
      ['leaf', 2, 1, 1],
    ]);
    const intoChild = await call(api.bankFolderUpdate, s.admin, { folder_id: top.id, parent_id: leaf.id });
    expect(intoChild.http).toBe(422);
    expect(intoChild.msg).toMatch(/cannot move into itself or one of its sub-folders/);
    expect((await call(api.bankFolderUpdate, s.admin, { folder_id: top.id, parent_id: top.id })).http).toBe(422);
    expect((await call(api.bankFolderCreate, s.admin, { name: 'mid', parent_id: top.id })).http).toBe(409);
    const renamed = await call<BankFolderNode>(api.bankFolderUpdate, s.admin, {
      folder_id: leaf.id,
      name: 'leaf 2',
      parent_id: null,
    });
    expect(renamed.data).toMatchObject({ name: 'leaf 2', parent_id: null, depth: 0 });
    const notEmpty = await call(api.bankFolderDelete, s.admin, { folder_id: top.id });
    expect(notEmpty.http).toBe(409);
    expect(notEmpty.code).toBe('folder_not_empty');
    expect(notEmpty.msg).toMatch(/1 sub-folder\(s\) and 1 question\(s\)/);
    expect((await call(api.bankFolderDelete, s.admin, { folder_id: mid.id })).http).toBe(200);
    expect((await call<BankFolderTree>(api.bankFolders, s.admin)).data.list.some((f) => f.id === mid.id)).toBe(false);
  });

  it("shows an author only their team's folders and questions", async () => {
    const theirs = await folder('team B', undefined, s.admin, teamB);
    const q = await qa('<p>team B only</p>', { folder_id: theirs.id });
    expect(q.team_id).toBe(teamB);
    const mine = await folder('team A', undefined, author);
    expect(mine.team_id).toBe(teamA);
    expect((await call(api.bankQuestion, author, { question_id: q.id })).http).toBe(404);
    expect((await call(api.bankQuestions, author, { folder_id: theirs.id })).http).toBe(404);
    expect((await call(api.bankFolderCreate, author, { name: 'x', parent_id: theirs.id })).http).toBe(404);
    expect((await call(api.bankBulkMove, author, { question_ids: [q.id], folder_id: mine.id })).http).toBe(404);
    const own = await qa('<p>team A question</p>', {}, author);
    expect((await call(api.bankBulkMove, author, { question_ids: [own.id], folder_id: theirs.id })).http).toBe(404);
    const folders = (await call<BankFolderTree>(api.bankFolders, author)).data.list;
    expect(folders.every((f) => f.team_id === teamA)).toBe(true);
    const list = (await call<BankQuestionListData>(api.bankQuestions, author, { page_size: 200 })).data.list;
    expect(list.length).toBeGreaterThan(0);
    expect(list.every((x) => x.team_id === teamA)).toBe(true);
    const grader = await s.t.loginStaff('grader');
    expect((await call(api.bankQuestions, grader)).http).toBe(403);
  });

  it('reports a stored question that no longer parses by its id, never a 500', async () => {
    const q = await qa('<p>soon broken</p>');
    await s.t.db.handle.db
      .updateTable('bank_questions')
      .set({ content: '{"stem":""}' })
      .where('id', '=', q.id)
      .execute();
    const read = await call(api.bankQuestion, s.admin, { question_id: q.id });
    expect(read.http).toBe(422);
    expect(read.code).toBe('question_invalid');
    expect(read.msg).toContain(`question ${q.id}`);
    const list = await call<BankQuestionListData>(api.bankQuestions, s.admin, { q: 'soon broken' });
    expect(list.http).toBe(200);
    expect(list.data.list[0]).toMatchObject({ id: q.id, problem: expect.stringMatching(/^content\.stem: /) });
    await s.t.db.handle.db
      .updateTable('bank_questions')
      .set({ answer_key: 'not json' })
      .where('id', '=', q.id)
      .execute();
    expect((await call(api.bankQuestion, s.admin, { question_id: q.id })).code).toBe('question_invalid');
    await expect(s.t.services.bankPools.getForPublish([q.id])).rejects.toMatchObject({ code: 'question_invalid' });
    // An update with a valid body repairs it.
    const fixed = await call<BankQuestionView>(api.bankQuestionUpdate, s.admin, {
      question_id: q.id,
      revision: 1,
      question: { kind: 'qa', content: { stem: '<p>fixed</p>' }, key: {} },
      default_score: 5,
    });
    expect(fixed.http).toBe(200);
  });

  it('uploads pictures (public, content-addressed) and refuses other files', async () => {
    const data = png();
    const up = await upload<{ key: string; url: string; mime: string; size: number }>(api.bankUploadImage, author, {
      name: 'a.png',
      type: 'image/png',
      data,
    });
    expect(up.http, up.msg).toBe(200);
    expect(up.data).toMatchObject({ mime: 'image/png', size: data.length });
    expect(up.data.url).toMatch(/^\/api\/media\/images\/[0-9a-f]{64}\.png$/);
    const served = await s.t.app.inject(up.data.url);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.rawPayload.equals(data)).toBe(true);
    expect((await s.t.app.inject('/api/media/images/..%2F..%2Fetc%2Fpasswd')).statusCode).toBe(404);
    const fake = await upload(api.bankUploadImage, author, {
      name: 'x.png',
      type: 'image/png',
      data: Buffer.from('<svg/>'),
    });
    expect(fake.http).toBe(415);
    const big = await upload(api.bankUploadImage, author, {
      name: 'big.png',
      type: 'image/png',
      data: Buffer.concat([data, Buffer.alloc(BANK_LIMITS.imageBytes)]),
    });
    expect(big.http).toBe(413);
    const entry = await s.t.db.handle.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'bank.upload.image')
      .executeTakeFirst();
    expect(JSON.parse(entry!.after!)).toMatchObject({ key: up.data.key, mime: 'image/png' });
  });

  it('uploads listening audio and reads its length on the server', async () => {
    const wav = beepsWav(4);
    const up = await upload<{ key: string; url: string; duration_s: number; mime: string }>(
      api.bankUploadAudio,
      author,
      {
        name: 'beeps.wav',
        type: 'audio/wav',
        data: wav,
      },
    );
    expect(up.http, up.msg).toBe(200);
    expect(up.data.mime).toBe('audio/wav');
    expect(up.data.duration_s).toBeCloseTo(wavSeconds(wav), 1);
    expect(up.data.key).toMatch(/^bank\/audio\/[0-9a-f]{64}\.wav$/);
    const played = await s.t.app.inject(up.data.url);
    expect(played.statusCode).toBe(200);
    expect(played.rawPayload.equals(wav)).toBe(true);
    const notAudio = await upload(api.bankUploadAudio, author, { name: 'x.wav', type: 'audio/wav', data: png() });
    expect(notAudio.http).toBe(415);
    const truncated = await upload(api.bankUploadAudio, author, {
      name: 'x.wav',
      type: 'audio/wav',
      data: wav.subarray(0, 12),
    });
    expect(truncated.http).toBe(422);
  });

  it('reads hidden cases from a zip of .in/.out pairs and refuses bad archives naming the file', async () => {
    const send = (files: Record<string, string | Uint8Array> | Buffer) =>
      upload<{ cases: { name: string; input: string; output: string }[]; total_bytes: number }>(
        api.bankUploadCases,
        author,
        {
          name: 'cases.zip',
          type: 'application/zip',
          data: Buffer.isBuffer(files)
            ? files
            : Buffer.from(
                zipSync(
                  Object.fromEntries(
                    Object.entries(files).map(([k, v]) => [k, typeof v === 'string' ? strToU8(v) : v]),
                  ),
                ),
              ),
        },
      );
    const good = await send({
      '10.in': '10 10\n',
      '10.out': '20\n',
      '2.in': '2 2\n',
      '2.out': '4\n',
      'sub/1.in': '1 1\n',
      'sub/1.out': '2\n',
      '__MACOSX/._2.in': 'junk',
    });
    expect(good.http, good.msg).toBe(200);
    expect(good.data.cases).toEqual([
      { name: '2', input: '2 2\n', output: '4\n' },
      { name: '10', input: '10 10\n', output: '20\n' },
      { name: 'sub/1', input: '1 1\n', output: '2\n' },
    ]);
    const traversal = await send({ '../evil.in': '1', '../evil.out': '1' });
    expect(traversal.http).toBe(422);
    expect(traversal.msg).toContain('../evil.in');
    const unmatched = await send({ '1.in': '1', '1.out': '1', '2.in': '2' });
    expect(unmatched.http).toBe(422);
    expect(unmatched.msg).toBe('2.in: has no matching 2.out');
    const stray = await send({ '1.in': '1', '1.out': '1', 'README.md': 'hi' });
    expect(stray.msg).toMatch(/^README\.md: only \.in and \.out/);
    const tooBig = await send({ '1.in': new Uint8Array(BANK_LIMITS.caseFileBytes + 1), '1.out': '1' });
    expect(tooBig.http).toBe(422);
    expect(tooBig.msg).toMatch(/^1\.in: .* unpacked; at most/);
    // A bomb lying about its size is stopped while unpacking.
    const bomb = await send(claimSize(zipSync({ '1.in': new Uint8Array(1_000_000), '1.out': strToU8('1') }), 100));
    expect(bomb.http).toBe(422);
    expect(bomb.msg).toMatch(/too many bytes/);
    expect((await send(Buffer.from('not a zip at all'))).http).toBe(415);
    expect((await send({ 'a.in': new Uint8Array([0xff, 0xfe, 0x00]), 'a.out': '1' })).msg).toBe('a.in: not UTF-8 text');
  });

  it('checks every upload by its bytes: HTML declared as a picture, audio or zip is refused with unsupported_media_type', async () => {
    for (const [c, type] of [
      [api.bankUploadImage, 'image/png'],
      [api.bankUploadAudio, 'audio/wav'],
      [api.bankUploadCases, 'application/zip'],
    ] as const) {
      const res = await upload(c, author, { name: 'x.png', type, data: HTML_PAGE });
      expect([res.http, res.code], c.path).toEqual([415, 'unsupported_media_type']);
    }
  });

  it('judges a reference solution on every case, stores it with the revision, and marks it stale after an edit', async () => {
    const q = await create(BODIES.programming!);
    const ok = await call<BankVerification>(api.bankVerify, s.admin, { question_id: q.id });
    expect(ok.http, ok.msg).toBe(200);
    expect(ok.data).toMatchObject({ ok: true, verdict: 'AC', revision: 1, problem: null, stale: false });
    expect(ok.data.cases.map((c) => [c.kind, c.number, c.verdict])).toEqual([
      ['sample', 1, 'AC'],
      ['hidden', 1, 'AC'],
      ['hidden', 2, 'AC'],
      ['hidden', 3, 'AC'],
    ]);
    expect((await s.t.services.bankPools.getForPublish([q.id]))[0]).toMatchObject({
      verification: 'ok',
      problem: null,
    });
    const listed = await call<BankQuestionListData>(api.bankQuestions, s.admin, { kind: 'programming' });
    expect(listed.data.list.find((x) => x.id === q.id)?.verification).toBe('ok');

    // Tags do not change what was judged; the reference does.
    await call(api.bankBulkTag, s.admin, { question_ids: [q.id], tags: ['sum'] });
    expect(
      (await call<BankQuestionView>(api.bankQuestion, s.admin, { question_id: q.id })).data.verification?.stale,
    ).toBe(false);
    const programming = BODIES.programming as Extract<QuestionBodyInput, { kind: 'programming' }>;
    const edited = await call<BankQuestionView>(api.bankQuestionUpdate, s.admin, {
      question_id: q.id,
      revision: 2,
      question: { ...programming, key: { ...programming.key, reference: { language: 'python', source: PY_FAILS_2 } } },
      default_score: 5,
    });
    expect(edited.http, edited.msg).toBe(200);
    expect(edited.data.verification).toMatchObject({ ok: true, stale: true });

    const failed = await call<BankVerification>(api.bankVerify, s.admin, { question_id: q.id });
    expect(failed.data).toMatchObject({
      ok: false,
      verdict: 'WA',
      revision: 3,
      problem: 'hidden case 2 (2): WA',
      stale: false,
    });
    expect(failed.data.cases.find((c) => c.kind === 'hidden' && c.number === 2)?.verdict).toBe('WA');
    expect(failed.data.cases.filter((c) => c.verdict === 'AC')).toHaveLength(3);
    expect((await s.t.services.bankPools.getForPublish([q.id]))[0]).toMatchObject({
      verification: 'failed',
      problem: 'hidden case 2 (2): WA',
    });
    const notProgramming = await qa('<p>not code</p>');
    expect((await call(api.bankVerify, s.admin, { question_id: notProgramming.id })).http).toBe(422);
  });

  it('gives exams the pool of a draw rule, sub-folders included', async () => {
    const top = await folder('pool', undefined, s.admin, teamB);
    const sub = await folder('pool sub', top.id);
    const a = await qa('<p>pool a</p>', { folder_id: top.id, tags: ['draw'], difficulty: 2 });
    const b = await qa('<p>pool b</p>', { folder_id: sub.id, tags: ['draw'], difficulty: 3 });
    await qa('<p>pool c</p>', { folder_id: sub.id, tags: ['other'], difficulty: 2 });
    expect(await s.t.services.bankPools.poolFor({ team: teamB, folder_ids: [top.id], tags: ['draw'] })).toEqual([
      a.id,
      b.id,
    ]);
    expect(await s.t.services.bankPools.poolFor({ team: teamB, folder_ids: [sub.id], tags: ['draw'] })).toEqual([b.id]);
    expect(
      await s.t.services.bankPools.poolFor({ team: teamB, folder_ids: [top.id], difficulty: [2], tags: [] }),
    ).toHaveLength(2);
    expect(await s.t.services.bankPools.poolFor({ team: teamA, folder_ids: [top.id] })).toEqual([]);
  });
});
