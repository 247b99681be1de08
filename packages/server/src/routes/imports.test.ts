/**
 * Question imports and exports over HTTP on each dialect: previews that write nothing, all-or-nothing imports
 * (or only the valid questions), embedded pictures stored and linked, refused and malformed files that change
 * nothing, and exports that import back to the same questions.
 */
import {
  api,
  type BankQuestionListData,
  type CallDef,
  type ImportCommitData,
  type ImportFormatListData,
  type ImportPreviewData,
  type QuestionBody,
} from '@examhall/contract';
import { FORMATS, importFile, TRUE_FALSE_OPTIONS, type Format } from '@examhall/importers';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/app.js';
import { testedDialects } from '../test/db.js';
import { giftText } from '../bench/staffLoad.js';
import { BankImportRepository } from '../repositories/bankImports.js';
import { JobRepository } from '../repositories/jobs.js';
import { IMPORT_STAGE_ROWS } from '../services/bank/transfer.js';
import { waitForJob } from '../test/jobs.js';
import { sendAs, uploadAs } from '../test/staffCalls.js';
import { SUM_PROBLEM } from '../test/programs.js';

const PNG_DOT = PNG.sync.write(new PNG({ width: 1, height: 1 }));

const opts = (...texts: string[]) => texts.map((content, i) => ({ id: String.fromCharCode(65 + i), content }));

/** One body of each kind the three formats carry, in the form that survives a trip through each. */
/** A programming problem: the one kind FPS and the problem zip carry. */
const PROGRAMMING: QuestionBody = SUM_PROBLEM;

/** Formats of programming problems only. */
const PROBLEM_FORMATS: readonly Format[] = ['fps', 'problem_zip'];

function bodiesFor(format: Format): QuestionBody[] {
  if (PROBLEM_FORMATS.includes(format)) return [PROGRAMMING];
  const list: QuestionBody[] = [
    { kind: 'single', content: { stem: '<p>2, 4, 8, ?</p>', options: opts('12', '16') }, key: { option: 'B' } },
    {
      kind: 'multiple',
      content: { stem: '<p>以下哪些是质数？</p>', options: opts('2', '9', '11') },
      key: { options: ['A', 'C'] },
    },
    {
      kind: 'indefinite',
      content: { stem: '<p>Which lie on the Yangtze?</p>', options: opts('Wuhan', 'Lhasa') },
      key: { options: ['A'] },
    },
    {
      kind: 'gradient',
      content: { stem: '<p>Best first step?</p>', options: opts('Ask', 'Guess', 'Leave') },
      key: { scores: { A: 100, B: 50, C: 0 } },
    },
    {
      kind: 'fill_blank',
      content: { stem: '<p>Status ___ means not found.</p>', blanks: 1 },
      key: { blanks: [['404']] },
    },
    {
      kind: 'qa',
      content: { stem: '<p>Describe ACID.</p>' },
      key: format === 'moodle_xml' ? { rubric: '<p>four properties</p>' } : {},
    },
  ];
  // QTI writes true/false as a single choice, so it comes back as one; the others keep the kind.
  const tfOptions = TRUE_FALSE_OPTIONS.map((content, i) => ({ id: 'AB'[i]!, content }));
  list.push(
    format === 'qti'
      ? {
          kind: 'single',
          content: { stem: '<p>Every square is a rectangle.</p>', options: tfOptions },
          key: { option: 'A' },
        }
      : {
          kind: 'true_false',
          content: { stem: '<p>Every square is a rectangle.</p>', options: tfOptions },
          key: { option: 'A' },
        },
  );
  return list;
}

const GIFT_GOOD = `// [tag:net]
$CATEGORY: Net/HTTP

::Q1:: Which status means not found? {=404 ~200 ~500}

::Q2:: HTTP is stateless. {T}
`;

/** The same file with a broken second question (an answer block never closed), at line 6. */
const GIFT_BAD = `// [tag:net]
$CATEGORY: Net/HTTP

::Q1:: Which status means not found? {=404 ~200 ~500}

::Q2:: HTTP is stateless. {T
`;

const moodleWithPicture = () => `<?xml version="1.0" encoding="UTF-8"?>
<quiz>
<question type="multichoice"><name><text>Pic</text></name>
<questiontext format="html"><text><![CDATA[<p>Which code? <img src="@@PLUGINFILE@@/dot.png"></p>]]></text>
<file name="dot.png" path="/" encoding="base64">${PNG_DOT.toString('base64')}</file></questiontext>
<single>true</single>
<answer fraction="100"><text>404</text></answer><answer fraction="0"><text>200</text></answer>
</question>
</quiz>
`;

/** A malformed file of each format, and files refused whole. */
const MALFORMED: [string, string, Buffer][] = [
  ['gift', 'broken.gift', Buffer.from('::A:: Open block {=yes ~no\n')],
  ['moodle_xml', 'broken.xml', Buffer.from('<?xml version="1.0"?>\n<quiz>\n<question type="multichoice">\n<name>')],
  [
    'qti',
    'broken.zip',
    Buffer.from(
      zipSync({
        'imsmanifest.xml': strToU8(
          '<manifest xmlns="http://www.imsglobal.org/xsd/imscp_v1p1"><resources><resource identifier="r" type="imsqti_item_xmlv2p1" href="item.xml"><file href="item.xml"/></resource></resources></manifest>',
        ),
        'item.xml': strToU8('<assessmentItem identifier="x"><itemBody><choiceInteraction'),
      }),
    ),
  ],
  ['binary', 'garbage.xml', Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256))],
  [
    'entity',
    'bomb.xml',
    Buffer.from('<?xml version="1.0"?><!DOCTYPE quiz [<!ENTITY a "aaaa">]><quiz><question>&a;</question></quiz>'),
  ],
];

describe.each(await testedDialects())('question imports and exports on %s', (dialect) => {
  let t: TestApp;
  let author: string;
  let teamA: number;
  let teamB: number;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    author = await t.loginStaff('author');
    const db = t.db.handle.db;
    teamA = await t.team('A');
    teamB = await t.team('B');
    await db.updateTable('staff').set({ team_id: teamA }).where('role', '=', 'author').execute();
  });
  afterAll(async () => t.close());

  const send = <T>(
    c: CallDef,
    input: { query?: Record<string, string | number | (string | number)[]>; body?: unknown },
    token = author,
  ) => sendAs<T>(t, c, input, token);

  async function upload<T>(c: CallDef, fields: Record<string, string>, name: string, data: Buffer) {
    const res = await uploadAs<T>(t, c, fields, name, data, author);
    if (c === api.bankImport && res.http === 200) {
      // The import runs as a job: its answer is the job's id; what it stored is the job's result.
      const job = await waitForJob(t, author, (res.data as { job_id: number }).job_id);
      expect(job.state, JSON.stringify(job.error)).toBe('done');
      return { http: res.http, data: job.result as T, code: res.code, msg: res.msg };
    }
    return { http: res.http, data: res.data, code: res.code, msg: res.msg };
  }

  async function folder(name: string, parent_id?: number): Promise<number> {
    const r = await send<{ id: number }>(api.bankFolderCreate, { body: { name, ...(parent_id ? { parent_id } : {}) } });
    expect(r.http, r.msg).toBe(200);
    return r.data.id;
  }

  /** Row counts of everything an import may write (the audit log aside: a preview leaves its entry). */
  async function counts() {
    const db = t.db.handle.db;
    const n = async (table: 'bank_questions' | 'bank_folders' | 'bank_question_tags') =>
      Number(
        (
          await db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    return {
      questions: await n('bank_questions'),
      folders: await n('bank_folders'),
      tags: await n('bank_question_tags'),
    };
  }

  async function questionsIn(folderId: number, subFolders = true) {
    const r = await send<BankQuestionListData>(api.bankQuestions, {
      query: { folder_id: folderId, sub_folders: subFolders ? 1 : 0, sort: 'id', order: 'asc', page_size: 200 },
    });
    expect(r.http, r.msg).toBe(200);
    return r.data.list;
  }

  async function bodyOf(id: number): Promise<QuestionBody> {
    const r = await send<{ question: QuestionBody }>(api.bankQuestion, { query: { question_id: id } });
    return r.data.question;
  }

  it('lists the formats of the importers package with their extension and content type', async () => {
    const r = await send<ImportFormatListData>(api.bankFormats, {});
    expect(r.http).toBe(200);
    expect(r.data.list.map((f) => f.format)).toEqual([...FORMATS]);
    expect(r.data.list.find((f) => f.format === 'moodle_xml')).toMatchObject({ extension: 'xml', label: 'Moodle XML' });
  });

  it('downloads the Excel template in each language, a workbook that previews with no error', async () => {
    const target = await folder('Template');
    for (const [lang, sheet, name] of [
      ['zh', '说明', '%E9%A2%98%E7%9B%AE%E5%AF%BC%E5%85%A5%E6%A8%A1%E6%9D%BF.xlsx'],
      ['en', 'Instructions', 'question-template.xlsx'],
    ] as const) {
      const file = await send(api.bankImportTemplate, { query: { lang } });
      expect(file.http, file.res.body.slice(0, 300)).toBe(200);
      expect(file.res.headers['content-type']).toContain('spreadsheetml');
      expect(file.res.headers['content-disposition']).toContain(name);
      const read = await importFile({ name: 'template.xlsx', bytes: file.res.rawPayload });
      expect(read.format).toBe('xlsx');
      expect(read.questions.length).toBeGreaterThan(1);
      // The instructions are in the asked language (the reader takes the headers of both).
      expect(strFromU8(unzipSync(file.res.rawPayload)['xl/workbook.xml']!)).toContain(`name="${sheet}"`);
      const preview = await upload<ImportPreviewData>(
        api.bankImportPreview,
        { folder_id: String(target) },
        'template.xlsx',
        file.res.rawPayload,
      );
      expect(preview.http, preview.msg).toBe(200);
      expect(preview.data.counts.errors).toBe(0);
      expect(preview.data.counts.questions).toBe(read.questions.length);
    }
    const bad = await send(api.bankImportTemplate, { query: { lang: 'fr' } });
    expect([bad.http, bad.code]).toEqual([422, 'validation_error']);
  });

  it('previews a file as it will be stored, with its problem located and duplicates named, and writes nothing', async () => {
    const target = await folder('Preview target');
    // A bank question of team A with the same stem and kind as Q1, and one of team B that must not count.
    const same = {
      question: {
        kind: 'single',
        content: { stem: '<p>Which status means not found?</p>', options: opts('404', '200', '500') },
        key: { option: 'A' },
      },
      default_score: 5,
    };
    const dup = await send<{ id: number }>(api.bankQuestionCreate, { body: same });
    expect(dup.http, dup.msg).toBe(200);
    const admin = await t.loginStaff('admin');
    const other = await send<{ id: number }>(api.bankQuestionCreate, { body: { ...same, team_id: teamB } }, admin);
    expect(other.http, other.msg).toBe(200);

    const before = await counts();
    const r = await upload<ImportPreviewData>(
      api.bankImportPreview,
      { folder_id: String(target) },
      'net.gift',
      Buffer.from(GIFT_BAD),
    );
    expect(r.http, r.msg).toBe(200);
    expect(r.data.format).toBe('gift');
    expect(r.data.questions).toHaveLength(1);
    const [q1] = r.data.questions;
    expect(q1).toMatchObject({
      index: 1,
      kind: 'single',
      type: 1,
      folder: ['Net', 'HTTP'],
      tags: ['net'],
      valid: true,
      duplicates: [{ id: dup.data.id }],
    });
    expect(q1!.question.key).toEqual({ option: 'A' });
    // What candidates see: the stem and options, never the key.
    expect(q1!.subject).toMatchObject({ type: 1, options: [{ id: 'A' }, { id: 'B' }, { id: 'C' }] });
    expect(JSON.stringify(q1!.subject)).not.toContain('"key"');
    const errors = r.data.problems.filter((p) => p.severity === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]!.where.line).toBe(6);
    expect(errors[0]!.message).toMatch(/^line 6/);
    expect(errors[0]!.message_zh).toMatch(/^第 6 行/);
    expect(r.data.counts).toMatchObject({ questions: 1, valid: 1, errors: 1 });
    expect(await counts()).toEqual(before);
  });

  it('imports all or nothing: a file with an error imports nothing unless only the valid ones are asked for', async () => {
    const target = await folder('All or nothing');
    const before = await counts();
    const refused = await upload(api.bankImport, { folder_id: String(target) }, 'net.gift', Buffer.from(GIFT_BAD));
    expect([refused.http, refused.code]).toEqual([422, 'import_has_errors']);
    expect(refused.msg).toContain('line 6');
    expect(await counts()).toEqual(before);

    const valid = await upload<ImportCommitData>(
      api.bankImport,
      { folder_id: String(target), only_valid: '1', tags: 'batch-1\nhttp' },
      'net.gift',
      Buffer.from(GIFT_BAD),
    );
    expect(valid.http, valid.msg).toBe(200);
    expect(valid.data).toMatchObject({ skipped: 0, folders_created: 2 });
    expect(valid.data.question_ids).toHaveLength(1);
    const stored = await questionsIn(target);
    expect(stored.map((q) => [q.id, q.kind, q.tags])).toEqual([
      [valid.data.question_ids[0], 'single', ['batch-1', 'http', 'net']],
    ]);
    // The file's category became folders below the target.
    expect(await questionsIn(target, false)).toEqual([]);

    // The fixed file imports whole, into the folders made before (no second Net/HTTP).
    const whole = await upload<ImportCommitData>(
      api.bankImport,
      { folder_id: String(target) },
      'net.gift',
      Buffer.from(GIFT_GOOD),
    );
    expect(whole.http, whole.msg).toBe(200);
    expect(whole.data).toMatchObject({ folders_created: 0 });
    expect((await questionsIn(target)).map((q) => q.kind)).toEqual(['single', 'single', 'true_false']);

    const entry = await t.db.handle.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'bank.import')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(entry).toMatchObject({ object_kind: 'folder', object_id: target });
    expect(JSON.parse(entry.after!)).toMatchObject({ questions: 2, question_ids: whole.data.question_ids });
  });

  it('stores a file of several staged parts whole, in its order with its tags, and leaves nothing staged', async () => {
    const target = await folder('Several parts');
    const count = IMPORT_STAGE_ROWS * 2 + 234;
    const before = await counts();
    const stored = await upload<ImportCommitData>(
      api.bankImport,
      { folder_id: String(target), tags: 'parts' },
      'many.gift',
      Buffer.from(giftText(count)),
    );
    expect(stored.http, stored.msg).toBe(200);
    const ids = stored.data.question_ids;
    expect(ids).toHaveLength(count);
    const rows = await t.db.handle.db
      .selectFrom('bank_questions')
      .select(['id', 'stem_text', 'folder_id'])
      .where('id', 'in', ids)
      .execute();
    const stemOf = new Map(rows.map((r) => [r.id, r.stem_text]));
    expect(ids.map((id) => /Question (\d+)/.exec(stemOf.get(id)!)?.[1])).toEqual(
      Array.from({ length: count }, (_, n) => String(n + 1)),
    );
    expect(rows.every((r) => r.folder_id === target)).toBe(true);
    const after = await counts();
    expect(after.questions - before.questions).toBe(count);
    // each question its file's two tags and the author's one
    expect(after.tags - before.tags).toBe(count * 3);
    expect(await t.db.handle.db.selectFrom('bank_import_rows').select('batch').execute()).toEqual([]);
  });

  it("forgets what import jobs staged once they ended without publishing, and keeps a running one's", async () => {
    const db = t.db.handle.db;
    const job = async (state: string) => {
      const id = await new JobRepository(db).insert({
        kind: 'bank_import',
        payload: '{}',
        owner_staff_id: null,
        team_id: null,
        created_at: 1,
      });
      await db.updateTable('job').set({ state }).where('id', '=', id).execute();
      return id;
    };
    const [failed, cancelled, running] = [await job('failed'), await job('cancelled'), await job('running')];
    const staged = {
      folder_path: '[]',
      kind: 'single',
      type: 1,
      stem_text: 'staged',
      content: '{}',
      answer_key: '{}',
      difficulty: 1,
      knowledge_points: '[]',
      default_score: 1,
      editor_id: 1,
      updated_at: 1,
      tags: '[]',
    };
    const staging = new BankImportRepository(db);
    for (const batch of [`job:${failed}`, `job:${cancelled}`, `job:${running}`, 'job:999999', 'cli:elsewhere']) {
      await staging.stage(batch, 0, [staged, staged]);
    }
    expect(await t.services.imports.sweepStaged()).toBe(3);
    expect((await staging.batches()).sort()).toEqual(['cli:elsewhere', `job:${running}`].sort());
    for (const batch of await staging.batches()) await staging.discard(batch);
  });

  it('stores embedded pictures and links them to where the bank serves them', async () => {
    const target = await folder('Pictures');
    const r = await upload<ImportCommitData>(
      api.bankImport,
      { folder_id: String(target) },
      'pic.xml',
      Buffer.from(moodleWithPicture()),
    );
    expect(r.http, r.msg).toBe(200);
    expect(r.data.files_stored).toBe(1);
    const stored = await bodyOf(r.data.question_ids[0]!);
    const src = /<img src="([^"]+)"/.exec(stored.content.stem)?.[1];
    expect(src).toMatch(/^\/api\/media\/images\/[0-9a-f]{64}\.png$/);
    const picture = await t.app.inject({ method: 'GET', url: src! });
    expect([picture.statusCode, picture.headers['content-type']]).toEqual([200, 'image/png']);
    expect(Buffer.compare(picture.rawPayload, PNG_DOT)).toBe(0);
  });

  it('refuses a file other than the one previewed, and a folder of another team', async () => {
    const target = await folder('Checked');
    const admin = await t.loginStaff('admin');
    const foreign = await send<{ id: number }>(
      api.bankFolderCreate,
      { body: { name: 'B only', team_id: teamB } },
      admin,
    );
    const before = await counts();
    const changed = await upload(
      api.bankImport,
      { folder_id: String(target), sha256: '0'.repeat(64) },
      'net.gift',
      Buffer.from(GIFT_GOOD),
    );
    expect([changed.http, changed.code]).toEqual([409, 'import_file_changed']);
    const refused = await upload(
      api.bankImport,
      { folder_id: String(foreign.data.id) },
      'net.gift',
      Buffer.from(GIFT_GOOD),
    );
    expect([refused.http, refused.code]).toEqual([404, 'not_found']);
    expect(await counts()).toEqual(before);
  });

  it.each(MALFORMED)(
    'a malformed or hostile %s file yields 422 with the located problem and changes nothing',
    async (_kind, name, data) => {
      const target = await folder(`Malformed ${name}`);
      const before = await counts();
      const preview = await upload<ImportPreviewData>(api.bankImportPreview, { folder_id: String(target) }, name, data);
      expect(preview.http, preview.msg).toBeLessThan(500);
      if (preview.http === 200) {
        // Read, but with located errors and no importable question: the commit refuses it.
        expect(preview.data.problems.some((p) => p.severity === 'error' && Object.keys(p.where).length > 0)).toBe(true);
      } else {
        expect([preview.http, preview.code]).toEqual([422, 'import_refused']);
        expect(preview.msg).toContain(name);
      }
      for (const only_valid of ['0', '1']) {
        const commit = await upload(api.bankImport, { folder_id: String(target), only_valid }, name, data);
        expect(commit.http).toBe(422);
        expect(['import_refused', 'import_has_errors']).toContain(commit.code);
      }
      expect(await counts()).toEqual(before);
    },
  );

  it('answers an unknown format name and an unrecognised file with stable codes', async () => {
    const target = await folder('Unknown');
    const badName = await upload(
      api.bankImportPreview,
      { folder_id: String(target), format: 'docx' },
      'a.gift',
      Buffer.from(GIFT_GOOD),
    );
    expect([badName.http, badName.code]).toEqual([422, 'format_unknown']);
    const unknown = await upload(
      api.bankImportPreview,
      { folder_id: String(target) },
      'notes.md',
      Buffer.from('# just notes\n'),
    );
    expect([unknown.http, unknown.code]).toEqual([422, 'import_refused']);
    // The format named overrides detection: the same text read as GIFT.
    const named = await upload<ImportPreviewData>(
      api.bankImportPreview,
      { folder_id: String(target), format: 'gift' },
      'notes.md',
      Buffer.from(GIFT_GOOD),
    );
    expect([named.http, named.data.questions.length]).toEqual([200, 2]);
  });

  it.each(FORMATS.map((f) => [f]))(
    'exports a folder as %s and imports it into another folder as the same questions',
    async (format) => {
      const source = await folder(`Export ${format}`);
      const bodies = bodiesFor(format);
      for (const question of bodies) {
        const r = await send(api.bankQuestionCreate, { body: { folder_id: source, question, default_score: 5 } });
        expect(r.http, r.msg).toBe(200);
      }
      const file = await send(api.bankExportFolder, { query: { folder_id: source, format } });
      expect(file.http, file.res.body.slice(0, 300)).toBe(200);
      const formats = (await send<ImportFormatListData>(api.bankFormats, {})).data.list;
      const info = formats.find((f) => f.format === format)!;
      expect(file.res.headers['content-type']).toContain(info.mime.split(';')[0]);
      expect(file.res.headers['content-disposition']).toContain(`folder-${source}.${info.extension}`);

      const copy = await folder(`Import ${format}`);
      const imported = await upload<ImportCommitData>(
        api.bankImport,
        { folder_id: String(copy), format },
        `back.${info.extension}`,
        file.res.rawPayload,
      );
      expect(imported.http, imported.msg).toBe(200);
      const back = await Promise.all(imported.data.question_ids.map(bodyOf));
      if (format === 'fps') {
        // FPS writes the statement in sections and lists no languages (the importers README): the rest returns.
        expect(back).toHaveLength(1);
        expect(back[0]).toMatchObject({
          kind: 'programming',
          content: { samples: PROGRAMMING.content.samples, time_limit_ms: 2000, memory_limit_mb: 256 },
          key: {
            cases: (PROGRAMMING.key as { cases: unknown }).cases,
            reference: (PROGRAMMING.key as { reference: unknown }).reference,
          },
        });
      } else expect(back).toEqual(bodies);
    },
  );

  it('exports chosen questions and an exam, and refuses what the caller cannot reach', async () => {
    const source = await folder('Chosen');
    const ids: number[] = [];
    for (const question of bodiesFor('gift').slice(0, 2)) {
      ids.push(
        (
          await send<{ id: number }>(api.bankQuestionCreate, {
            body: { folder_id: source, question, default_score: 5 },
          })
        ).data.id,
      );
    }
    const chosen = await send(api.bankExportQuestions, {
      query: { question_ids: ids, format: 'moodle_xml' },
    });
    expect(chosen.http).toBe(200);
    expect(chosen.res.headers['content-type']).toContain('application/xml');
    expect(chosen.res.body.match(/<question type="multichoice"/g)).toHaveLength(2);
    const badIds = await send(api.bankExportQuestions, { query: { question_ids: ['1', 'x'], format: 'gift' } });
    expect([badIds.http, badIds.code]).toEqual([422, 'validation_error']);

    const admin = await t.loginStaff('admin');
    const { examId } = await t.seed('13800138077');
    const exam = await send(api.examExport, { query: { exam_id: examId, format: 'gift' } }, admin);
    expect(exam.http, exam.res.body.slice(0, 300)).toBe(200);
    expect(exam.res.headers['content-disposition']).toContain(`exam-${examId}.gift.txt`);
    expect(exam.res.body).toContain('{');
    // The demo exam belongs to no team: an author reaches neither it nor another team's questions.
    const refused = await send(api.examExport, { query: { exam_id: examId, format: 'gift' } });
    expect([refused.http, refused.code]).toEqual([404, 'not_found']);
    const proctor = await t.loginStaff('proctor', { examId });
    const noKeys = await send(api.examExport, { query: { exam_id: examId, format: 'gift' } }, proctor);
    expect([noKeys.http, noKeys.code]).toEqual([403, 'forbidden']);
  });
});
