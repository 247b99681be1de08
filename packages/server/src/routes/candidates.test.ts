import {
  api,
  type CandidateImportPreviewData,
  type CandidateImportResult,
  type CandidateListData,
  type CandidateView,
  type ExamCandidatesData,
} from '@examhall/contract';
import { readTable, writeTable } from '@examhall/importers';
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { body } from '../test/app.js';
import { enterExam, passChecks } from '../test/checks.js';
import { authoredExam } from '../test/callWorld.js';
import { twoTeamsApp } from '../test/examScenario.js';
import { testedDialects } from '../test/db.js';
import { waitForJob } from '../test/jobs.js';

const DAY = 86_400_000;

describe.each(await testedDialects())('candidate directory and exam statuses on %s', (dialect) => {
  const s = twoTeamsApp(dialect);
  const { send, upload } = s;

  /** Imports a file as a job and answers the finished job's result. */
  async function importFile(name: string, data: Buffer, fields: Record<string, string> = {}, token = s.authorA) {
    const preview = await upload<CandidateImportPreviewData>(api.candidateImportPreview, fields, name, data, token);
    expect(preview.http, preview.msg).toBe(200);
    const started = await upload<{ job_id: number }>(
      api.candidateImport,
      { ...fields, sha256: preview.data.sha256, only_valid: '1' },
      name,
      data,
      token,
    );
    expect(started.http, started.msg).toBe(200);
    const job = await waitForJob(s.t, token, started.data.job_id, 60_000);
    expect(job.state, JSON.stringify(job.error)).toBe('done');
    expect(job.kind).toBe('candidate_import');
    return { preview: preview.data, result: job.result as CandidateImportResult, job };
  }

  it('adds a candidate with the login page phone rule, edits it, and refuses another candidate’s phone', async () => {
    const bad = await send(api.candidateCreate, { body: { phone: '12345', name: 'x' } });
    expect([bad.http, bad.code]).toEqual([422, 'validation_error']);
    expect(bad.msg).toMatch(/phone/);
    const badEmail = await send(api.candidateCreate, { body: { phone: '13811110000', name: 'x', email: 'nope' } });
    expect([badEmail.http, badEmail.msg]).toEqual([422, expect.stringMatching(/email/)]);
    const hk = await send(api.candidateCreate, { body: { area_code: '852', phone: '13811110000', name: 'x' } });
    expect(hk.http).toBe(422);

    const made = await send<CandidateView>(api.candidateCreate, {
      body: {
        phone: '138 1111 0001',
        name: '李雷',
        email: 'lilei@example.com',
        school: '北京大学',
        graduation_year: 2026,
        custom: { 意向岗位: '后端' },
      },
    });
    expect(made.http, made.msg).toBe(200);
    expect(made.data).toMatchObject({
      area_code: '86',
      phone: '13811110001',
      name: '李雷',
      school: '北京大学',
      custom: { 意向岗位: '后端' },
      team_ids: [s.teamA],
      last_login_at: null,
    });
    const edited = await send<CandidateView>(api.candidateUpdate, {
      body: { candidate_id: made.data.id, phone: '13811110002', name: '李雷', major: '数学', custom: {} },
    });
    expect(edited.http, edited.msg).toBe(200);
    expect(edited.data).toMatchObject({ phone: '13811110002', major: '数学', school: '', custom: {} });

    const other = await send<CandidateView>(api.candidateCreate, { body: { phone: '13811110003', name: '韩梅梅' } });
    const taken = await send(api.candidateUpdate, {
      body: { candidate_id: other.data.id, phone: '13811110002', name: '韩梅梅' },
    });
    expect([taken.http, taken.code]).toEqual([409, 'candidate_phone_taken']);
  });

  it("keeps each team's candidates to itself: another team's author can neither see nor edit them", async () => {
    const mine = await send<CandidateView>(api.candidateCreate, { body: { phone: '13822220001', name: 'A only' } });
    const list = await send<CandidateListData>(api.candidateList, { query: { q: '13822220001' } }, s.authorB);
    expect(list.data.total).toBe(0);
    const seen = await send(api.candidateDetail, { query: { candidate_id: mine.data.id } }, s.authorB);
    expect([seen.http, seen.code]).toEqual([404, 'not_found']);
    const edit = await send(
      api.candidateUpdate,
      { body: { candidate_id: mine.data.id, phone: '13822220001', name: 'B' } },
      s.authorB,
    );
    expect(edit.http).toBe(404);
    // Team B adding the same phone is refused; an admin adds the person to B.
    const claim = await send(api.candidateCreate, { body: { phone: '13822220001', name: 'B name' } }, s.authorB);
    expect([claim.http, claim.code]).toEqual([409, 'candidate_in_other_team']);
    const linked = await send<CandidateView>(
      api.candidateCreate,
      { body: { phone: '13822220001', name: 'A only', school: 'B school', team_id: s.teamB } },
      s.admin,
    );
    expect(linked.data).toMatchObject({
      id: mine.data.id,
      name: 'A only',
      school: 'B school',
      team_ids: [s.teamA, s.teamB],
    });
    const bSees = await send<CandidateView>(api.candidateDetail, { query: { candidate_id: mine.data.id } }, s.authorB);
    expect(bSees.data.team_ids).toEqual([s.teamB]);
    const adminSees = await send<CandidateListData>(api.candidateList, { query: { q: '1382222' } }, s.admin);
    expect(adminSees.data.total).toBe(1);
    // A grader has no candidate permission at all.
    const grader = await s.t.loginStaff('grader');
    expect((await send(api.candidateList, {}, grader)).http).toBe(403);
  });

  it('lists with filters, sorting and paging on the server, with login counts', async () => {
    for (const [i, school] of ['清华大学', '浙江大学', '清华大学'].entries()) {
      await send(api.candidateCreate, { body: { phone: `1383333000${i}`, name: `排序${3 - i}`, school } });
    }
    await s.t.loginCandidate('13833330001');
    const q = { q: '138333300' };
    const all = await send<CandidateListData>(api.candidateList, { query: { ...q, sort: 'name', order: 'asc' } });
    expect(all.data.list.map((c) => c.name)).toEqual(['排序1', '排序2', '排序3']);
    expect(all.data.counts).toEqual({ all: 3, logged_in: 1, never: 2 });
    const tsinghua = await send<CandidateListData>(api.candidateList, { query: { ...q, school: '清华' } });
    expect(tsinghua.data.total).toBe(2);
    const never = await send<CandidateListData>(api.candidateList, { query: { ...q, login: 'no' } });
    expect(never.data.total).toBe(2);
    const page2 = await send<CandidateListData>(api.candidateList, {
      query: { ...q, sort: 'phone', order: 'asc', page: 2, page_size: 2 },
    });
    expect(page2.data.list.map((c) => c.phone)).toEqual(['13833330002']);
    expect(page2.data.total).toBe(3);
  });

  it('previews a CSV: bad rows by row and column, duplicates merged, existing candidates updated, custom columns', async () => {
    await send(api.candidateCreate, { body: { phone: '13844440009', name: '旧名字', school: '旧学校' } });
    const csv = [
      '手机号,姓名,邮箱,学校,毕业年份,意向岗位,Hobby',
      '13844440001,张三,zs@example.com,清华大学,2026,后端,chess',
      '12345,坏号码,,,,,',
      '13844440002,李四,not-an-email,北大,2025届,,',
      '13844440001,,zs2@example.com,,,算法,',
      '13844440009,新名字,,,1800,,',
      '13844440009,新名字,,新学校,,,',
    ].join('\n');
    const preview = await upload<CandidateImportPreviewData>(
      api.candidateImportPreview,
      {},
      'list.csv',
      Buffer.from(csv),
    );
    expect(preview.http, preview.msg).toBe(200);
    const d = preview.data;
    expect(d.columns).toEqual(['phone', 'name', 'email', 'school', 'graduation_year']);
    expect(d.custom_columns).toEqual(['意向岗位', 'Hobby']);
    const errors = d.problems.filter((p) => p.severity === 'error').map((p) => [p.row, p.column, p.code]);
    expect(errors).toEqual([
      [3, '手机号', 'phone_invalid'],
      [4, '邮箱', 'email_invalid'],
      [6, '毕业年份', 'year_invalid'],
    ]);
    const merged = d.problems.filter((p) => p.code === 'merged').map((p) => [p.row, p.column]);
    // Row 6 is invalid, so row 7 is the first usable row of its phone, not a merge.
    expect(merged).toEqual([[5, '手机号']]);
    const zs = d.rows.find((r) => r.phone === '13844440001')!;
    expect(zs).toMatchObject({
      rows: [2, 5],
      name: '张三',
      email: 'zs2@example.com',
      graduation_year: 2026,
      custom: { 意向岗位: '算法', Hobby: 'chess' },
      action: 'create',
    });
    expect(d.rows.filter((r) => r.phone === '13844440009').map((r) => [r.row, r.action])).toEqual([
      [6, 'invalid'],
      [7, 'update'],
    ]);
    expect(d.counts).toMatchObject({ rows: 6, create: 1, update: 1, invalid: 3, merged: 1, errors: 3 });

    // Without only_valid a file with errors imports nothing.
    const refused = await upload(api.candidateImport, { sha256: d.sha256 }, 'list.csv', Buffer.from(csv));
    expect([refused.http, refused.code]).toEqual([422, 'import_has_errors']);
    const changed = await upload(
      api.candidateImport,
      { sha256: '0'.repeat(64), only_valid: '1' },
      'list.csv',
      Buffer.from(csv),
    );
    expect([changed.http, changed.code]).toEqual([409, 'import_file_changed']);

    const { result } = await importFile('list.csv', Buffer.from(csv));
    expect(result).toEqual({ created: 1, updated: 1, skipped: 3, total: 2 });
    const listed = await send<CandidateListData>(api.candidateList, {
      query: { q: '1384444', sort: 'phone', order: 'asc' },
    });
    expect(listed.data.list.map((c) => [c.phone, c.name, c.school, c.custom])).toEqual([
      ['13844440001', '张三', '清华大学', { 意向岗位: '算法', Hobby: 'chess' }],
      ['13844440009', '新名字', '新学校', {}],
    ]);
  });

  it('refuses a file without a phone column, and reads English headers with an area code', async () => {
    const noPhone = await upload(api.candidateImportPreview, {}, 'x.csv', Buffer.from('name,school\nA,B\n'));
    expect([noPhone.http, noPhone.code]).toEqual([422, 'candidate_import_refused']);
    const en = await upload<CandidateImportPreviewData>(
      api.candidateImportPreview,
      {},
      'en.csv',
      Buffer.from(
        'Area code,Phone,Name,Degree\n852,9123 4567,Chan,Master\n+852,+85291234568,Wong,\n999,13800000000,X,\n',
      ),
    );
    expect(en.data.rows.map((r) => [r.area_code, r.phone, r.action])).toEqual([
      ['852', '91234567', 'create'],
      ['852', '91234568', 'create'],
      ['86', '13800000000', 'invalid'],
    ]);
    expect(en.data.problems.map((p) => [p.row, p.column, p.code])).toEqual([[4, 'Area code', 'area_code_unknown']]);
  });

  it('imports 10,000 rows of an xlsx completely, as a job in batches', async () => {
    const header = ['手机号', '姓名', '学校', '专业', '学历', '毕业年份', '邮箱', '来源'];
    const rows = Array.from({ length: 10_000 }, (_, i) => [
      `139${String(i).padStart(8, '0')}`,
      `考生${i}`,
      `学校${i % 50}`,
      '计算机',
      '本科',
      2026,
      `c${i}@example.com`,
      '校招',
    ]);
    const file = Buffer.from(await writeTable('xlsx', header, rows));
    const started = Date.now();
    const { preview, result, job } = await importFile('big.xlsx', file);
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(preview.counts).toMatchObject({ rows: 10_000, candidates: 10_000, create: 10_000, invalid: 0 });
    // The preview answers the first page of candidates, with the totals of the whole file.
    expect(preview.rows.map((r) => r.row)).toEqual(Array.from({ length: 50 }, (_, i) => i + 2));
    expect([preview.problem_rows, preview.problems, preview.counts.with_problems]).toEqual([[], [], 0]);
    expect(result).toEqual({ created: 10_000, updated: 0, skipped: 0, total: 10_000 });
    expect(job.progress).toMatchObject({ done: 10_000, total: 10_000, phase: 'candidates' });
    const n = await s.t.db.handle.db
      .selectFrom('candidate_team as ct')
      .innerJoin('candidates as c', 'c.id', 'ct.candidate_id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('ct.team_id', '=', s.teamA)
      .where('c.phone', 'like', '139%')
      .executeTakeFirstOrThrow();
    expect(Number(n.n)).toBe(10_000);
  }, 60_000);

  it.each([
    ['a line break', '\n'],
    ['a tab', '\t'],
    ['CR LF', '\r\n'],
  ])('refuses a list of 250,000 empty rows, each tag broken by %s, at the row limit within 2 s', async (_, gap) => {
    const parts = ['<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'];
    for (let r = 1; r <= 250_000; r++) parts.push(`<row${gap}r="${r}"></row>`);
    parts.push('</sheetData></worksheet>');
    const file = Buffer.from(
      zipSync(
        { 'xl/workbook.xml': strToU8('<workbook/>'), 'xl/worksheets/sheet1.xml': strToU8(parts.join('')) },
        { level: 6 },
      ),
    );
    const started = performance.now();
    const r = await upload(api.candidateImportPreview, {}, 'gapped.xlsx', file);
    expect(performance.now() - started).toBeLessThan(2000);
    expect([r.http, r.code, r.data]).toEqual([
      422,
      'candidate_import_refused',
      { problem: 'sheet_too_many_rows', limit: 10_000 },
    ]);
    expect(r.msg).toContain('over the limit of 10000');
  });

  it('answers the first 50 candidates, the first 50 with a problem and the first 200 problems, with the totals', async () => {
    // 900 rows: every third has no name (an error), so 300 are refused; the first page of each list is answered.
    const lines = ['手机号,姓名'];
    for (let i = 0; i < 900; i++) lines.push(`137${String(i).padStart(8, '0')},${i % 3 === 2 ? '' : `考生${i}`}`);
    const r = await upload<CandidateImportPreviewData>(
      api.candidateImportPreview,
      {},
      'page.csv',
      Buffer.from(lines.join('\n')),
    );
    expect(r.http, r.msg).toBe(200);
    expect(r.data.counts).toMatchObject({
      rows: 900,
      candidates: 900,
      invalid: 300,
      with_problems: 300,
      problems: 300,
    });
    expect(r.data.rows.map((x) => x.row)).toEqual(Array.from({ length: 50 }, (_, i) => i + 2));
    expect(r.data.problem_rows.map((x) => x.row)).toEqual(Array.from({ length: 50 }, (_, i) => 3 * i + 4));
    expect(r.data.problems.map((p) => p.row)).toEqual(Array.from({ length: 200 }, (_, i) => 3 * i + 4));
  });

  it('downloads the template, which reads back as a file with the known headers', async () => {
    const res = await send(api.candidateImportTemplate, { query: { lang: 'en' } });
    expect(res.http).toBe(200);
    const table = await readTable('t.xlsx', res.res.rawPayload, { fileBytes: 1e6, rows: 10, columns: 20 });
    if (table.refused) throw new Error(table.problem.message);
    expect(table.header.cells.slice(0, 3)).toEqual(['area code', 'phone', 'name']);
    const preview = await upload<CandidateImportPreviewData>(
      api.candidateImportPreview,
      {},
      't.xlsx',
      res.res.rawPayload,
    );
    expect(preview.data.counts).toMatchObject({ rows: 1, invalid: 0 });
    expect(preview.data.custom_columns).toEqual(['preferred role']);
  });

  it("computes each invited candidate's status in an exam, counts them in one query, and exports the list", async () => {
    const { examId, anid: seededAnid } = await s.t.seed('13855550001');
    await s.t.db.handle.db.updateTable('exams').set({ team_id: s.teamA }).where('id', '=', examId).execute();
    const phones = {
      invited: '13855550002',
      logged_in: '13855550003',
      checks_passed: '13855550004',
      in_progress: '13855550005',
      submitted: '13855550006',
      ended_by_proctor: '13855550001',
      extra: '13855550007',
    };
    const anid: Record<string, number> = { ended_by_proctor: seededAnid };
    for (const [k, phone] of Object.entries(phones)) {
      if (k !== 'ended_by_proctor') anid[k] = await s.t.invite(examId, phone, k === 'extra' ? 24 * 60 * 400 : 0);
    }
    await send(api.candidateCreate, { body: { phone: phones.invited, name: '只邀请', school: '复旦大学' } });
    await s.t.loginCandidate(phones.logged_in);
    await passChecks(s.t, await s.t.loginCandidate(phones.checks_passed), examId, anid.checks_passed!);
    expect(
      (await enterExam(s.t, await s.t.loginCandidate(phones.in_progress), examId, anid.in_progress!)).statusCode,
    ).toBe(200);
    const sub = await s.t.loginCandidate(phones.submitted);
    expect((await enterExam(s.t, sub, examId, anid.submitted!)).statusCode).toBe(200);
    const fin = await s.t.app.inject({
      method: 'POST',
      url: `/api/monitor/finish-exam?auth=${sub}`,
      payload: { exam_id: examId },
    });
    expect(fin.statusCode, fin.body).toBe(200);
    const ended = await s.t.loginCandidate(phones.ended_by_proctor);
    const entered = body<{ attempt: { id: number } }>(await enterExam(s.t, ended, examId, seededAnid)).data;
    const end = await send(api.proctorEnd, { body: { attempt_id: entered.attempt.id, reason: 'two people' } }, s.admin);
    expect(end.http, end.msg).toBe(200);

    const statusOf = async () => {
      const r = await send<ExamCandidatesData>(api.examCandidates, { query: { exam_id: examId, page_size: 50 } });
      expect(r.http, r.msg + s.t.logs.filter((l) => l.includes('"err"')).join('\n')).toBe(200);
      return { data: r.data, by: Object.fromEntries(r.data.list.map((c) => [c.phone, c.status])) };
    };
    const before = await statusOf();
    expect(before.by).toEqual({
      [phones.invited]: 'invited',
      [phones.logged_in]: 'logged_in',
      [phones.checks_passed]: 'checks_passed',
      [phones.in_progress]: 'in_progress',
      [phones.submitted]: 'submitted',
      [phones.ended_by_proctor]: 'ended_by_proctor',
      [phones.extra]: 'invited',
    });
    expect(before.data.counts).toEqual({
      invited: 2,
      logged_in: 1,
      checks_passed: 1,
      in_progress: 1,
      submitted: 1,
      ended_by_proctor: 1,
      absent: 0,
    });
    expect(before.data.list.find((c) => c.phone === phones.invited)).toMatchObject({
      name: '只邀请',
      school: '复旦大学',
      sms: null,
    });

    // Another team's author does not reach the exam; a proctor assigned to it does.
    expect((await send(api.examCandidates, { query: { exam_id: examId } }, s.authorB)).http).toBe(404);
    const proctor = await s.t.loginStaff('proctor', { examId });
    expect((await send(api.examCandidates, { query: { exam_id: examId } }, proctor)).http).toBe(200);

    // After the window those who never started are absent, unless their extra time still runs.
    s.t.advance(366 * DAY);
    s.authorA = await s.t.loginStaff('author');
    const after = await statusOf();
    expect(after.data.counts).toMatchObject({
      absent: 3,
      invited: 1,
      in_progress: 1,
      submitted: 1,
      ended_by_proctor: 1,
    });
    expect(after.by[phones.extra]).toBe('invited');

    const absent = await send<ExamCandidatesData>(api.examCandidates, {
      query: { exam_id: examId, status: 'absent', sort: 'phone', order: 'desc', page_size: 2 },
    });
    expect(absent.data.total).toBe(3);
    expect(absent.data.list.map((c) => c.phone)).toEqual([phones.checks_passed, phones.logged_in]);

    const csv = await send(api.examCandidatesExport, {
      query: { exam_id: examId, status: 'absent', format: 'csv', lang: 'en' },
    });
    expect(csv.http).toBe(200);
    expect(String(csv.res.headers['content-type'])).toMatch(/text\/csv/);
    const lines = csv.res.rawPayload
      .toString('utf8')
      .replace(/^\ufeff/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toMatch(/^Invitation,Area code,Phone,Name,Email,School,Status,SMS/);
    expect(
      lines
        .slice(1)
        .map((l) => l.split(',')[2])
        .sort(),
    ).toEqual([phones.invited, phones.logged_in, phones.checks_passed].sort());
    expect(lines.slice(1).every((l) => l.split(',')[6] === 'Absent')).toBe(true);
    const xlsx = await send(api.examCandidatesExport, { query: { exam_id: examId, format: 'xlsx', lang: 'zh' } });
    const table = await readTable('e.xlsx', xlsx.res.rawPayload, { fileBytes: 1e7, rows: 100, columns: 20 });
    if (table.refused) throw new Error(table.problem.message);
    expect(table.rows).toHaveLength(7);
    const statusCol = table.header.cells.indexOf('状态');
    const byPhone = Object.fromEntries(table.rows.map((r) => [r.cells[2], r.cells[statusCol]]));
    expect(byPhone[phones.ended_by_proctor]).toBe('被监考结束');
    expect(byPhone[phones.submitted]).toBe('已交卷');
  }, 60_000);

  it('imports a file and invites its candidates to an exam, texting each once; another team’s exam is refused first', async () => {
    const { examId } = await authoredExam(s.t, s.authorA, true);
    const phones = ['13866660001', '13866660002', '13866660003'];
    const file = Buffer.from(
      await writeTable(
        'xlsx',
        ['手机号', '姓名'],
        phones.map((p, i) => [p, `受邀${i}`]),
      ),
    );
    // Another team's author cannot name this exam: refused before anything is stored.
    const otherAuthor = (await s.t.services.staffLogin.login('13600000099', 'author-b-pass', { ip: '127.0.0.1' }))
      .token;
    const preview = await upload<CandidateImportPreviewData>(
      api.candidateImportPreview,
      {},
      'invite.xlsx',
      file,
      otherAuthor,
    );
    expect(preview.http, preview.msg).toBe(200);
    const refused = await upload(
      api.candidateImport,
      { sha256: preview.data.sha256, invite_exam_id: String(examId), send_sms: '1' },
      'invite.xlsx',
      file,
      otherAuthor,
    );
    expect([refused.http, refused.code]).toEqual([404, 'not_found']);
    const stored = await s.t.db.handle.db.selectFrom('candidates').select('id').where('phone', 'in', phones).execute();
    expect(stored).toEqual([]);

    const { result } = await importFile('invite.xlsx', file, { invite_exam_id: String(examId), send_sms: '1' });
    expect(result).toMatchObject({ created: 3, updated: 0, skipped: 0, total: 3 });
    expect(result.invitation_job_id).toEqual(expect.any(Number));
    const invited = await waitForJob(s.t, s.authorA, result.invitation_job_id!, 30_000);
    expect(invited.kind).toBe('invitation_bulk');
    expect(invited.result).toMatchObject({ created: 3, existing: 0, queued: 3 });
    const texts = await s.t.db.handle.db
      .selectFrom('sms_messages')
      .select(['phone', 'purpose'])
      .where('exam_id', '=', examId)
      .where('phone', 'in', phones)
      .execute();
    expect(texts.map((m) => m.phone).sort()).toEqual(phones);
    expect(new Set(texts.map((m) => m.purpose))).toEqual(new Set(['invitation']));

    // The same file again: the candidates are updated, nobody is invited or texted twice.
    const again = await importFile('invite.xlsx', file, { invite_exam_id: String(examId), send_sms: '1' });
    const second = await waitForJob(s.t, s.authorA, again.result.invitation_job_id!, 30_000);
    expect(second.result).toMatchObject({ created: 0, existing: 3, queued: 0 });
    const count = await s.t.db.handle.db
      .selectFrom('sms_messages')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('exam_id', '=', examId)
      .where('phone', 'in', phones)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(3);
  }, 60_000);
});
