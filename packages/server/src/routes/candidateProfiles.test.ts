/**
 * Staff and candidates write the same profile fields (the directory's form and file, the candidate's own profile
 * form): every shape either of them can store must read back through every answer that shows it.
 */
import {
  api,
  type CallDef,
  type CandidateImportPreviewData,
  type CandidateListData,
  type CandidateView,
  type ExamCandidatesData,
  type MyInfoData,
} from '@examhall/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { body } from '../test/app.js';
import { authoredExam } from '../test/callWorld.js';
import { testedDialects } from '../test/db.js';
import { adminApp } from '../test/examScenario.js';
import { waitForJob } from '../test/jobs.js';
import { multipart } from '../test/multipart.js';

const FULL = {
  name: '王五',
  email: 'wangwu@example.com',
  school: '北京大学',
  major: '计算机科学与技术',
  degree: '本科',
  graduation_year: 2026,
  custom: { 意向岗位: '后端' },
};
const OPTIONAL = ['email', 'school', 'major', 'degree', 'graduation_year', 'custom'] as const;
const EMPTY = { email: '', school: '', major: '', degree: '', graduation_year: null, custom: {} };

describe.each(await testedDialects())('stored profiles read back everywhere on %s', (dialect) => {
  const s = adminApp(dialect, { seed: false });
  let author: string;
  let team: number;
  let logins = 0;

  beforeAll(async () => {
    author = await s.t.loginStaff('author');
    team = await s.t.team('A');
    await s.t.db.handle.db.updateTable('staff').set({ team_id: team }).where('role', '=', 'author').execute();
  });

  async function send<T>(
    c: CallDef,
    input: { query?: Record<string, string | number>; body?: unknown },
    token: string,
  ) {
    const res = await s.t.app.inject({
      method: c.method,
      url: `/api${c.path}`,
      query: Object.fromEntries(Object.entries(input.query ?? {}).map(([k, v]) => [k, String(v)])),
      headers: { authorization: `Bearer ${token}` },
      ...(c.method === 'GET' ? {} : { payload: (input.body ?? {}) as object }),
    });
    const b = body<T>(res);
    return { http: res.statusCode, data: b.data as T, msg: `${res.body} ${errorsLogged()}` };
  }
  const errorsLogged = () => s.t.logs.filter((l) => l.includes('"level":50')).join('\n');
  const sessions = new Map<string, string>();
  /** A candidate's session: logged in once, from an address of its own (the code limits are not what is tested). */
  const login = async (phone: string) => {
    const had = sessions.get(phone);
    if (had) return had;
    const token = await s.t.loginCandidate(phone, `10.9.${Math.floor(logins / 200)}.${logins++ % 200}`);
    sessions.set(phone, token);
    return token;
  };
  const candidateCall = async <T>(method: 'GET' | 'POST', path: string, token: string, payload?: object) => {
    const res = await s.t.app.inject({ method, url: `/api${path}?auth=${token}`, ...(payload ? { payload } : {}) });
    return { http: res.statusCode, data: body<T>(res).data, msg: `${res.body} ${errorsLogged()}` };
  };
  const staffCreate = async (phone: string, fields: object) => {
    const made = await send<CandidateView>(api.candidateCreate, { body: { phone, ...fields } }, author);
    expect(made.http, made.msg).toBe(200);
    return made.data;
  };
  const staffUpdate = async (c: CandidateView, fields: object) => {
    const edited = await send<CandidateView>(
      api.candidateUpdate,
      { body: { candidate_id: c.id, phone: c.phone, name: c.name, ...fields } },
      author,
    );
    expect(edited.http, edited.msg).toBe(200);
    return edited.data;
  };
  const ownProfile = async (token: string, profile: object) => {
    const saved = await candidateCall<MyInfoData>('POST', '/user/my-info', token, profile);
    expect(saved.http, saved.msg).toBe(200);
  };

  it('answers 200 for every shape staff, files and candidates store, in my-info, the directory and the exam list', async () => {
    /** Each stored shape by phone, with a candidate session where one was made before the shape was stored. */
    const shapes = new Map<string, string>();
    const phone = (n: number) => `1387200${String(n).padStart(4, '0')}`;
    let n = 0;

    // Added by staff with only the required fields, then with each optional field left empty in turn.
    shapes.set(phone(++n), 'staff: phone and name only');
    await staffCreate(phone(n), { name: '仅姓名' });
    for (const field of OPTIONAL) {
      shapes.set(phone(++n), `staff: all but ${field}`);
      await staffCreate(phone(n), { ...FULL, [field]: EMPTY[field] });
    }
    shapes.set(phone(++n), 'staff: degree as a code');
    await staffCreate(phone(n), { ...FULL, degree: 'master' });
    shapes.set(phone(++n), 'staff: degree in English');
    await staffCreate(phone(n), { ...FULL, degree: 'Doctorate' });

    // Imported from a sheet: degrees as people write them, empty cells.
    const csv = [
      '手机号,姓名,学校,专业,学历,毕业年份',
      `${phone(++n)},导入一,清华大学,数学,本科,2025`,
      `${phone(++n)},导入二,,,,`,
      `${phone(++n)},导入三,复旦大学,物理,Master,2024届`,
      `${phone(++n)},导入四,浙江大学,化学,博士研究生,`,
      `${phone(++n)},导入五,南京大学,,大专,2027`,
    ].join('\n');
    for (let i = n - 4; i <= n; i++) shapes.set(phone(i), `imported row ${i - n + 6}`);
    const file = Buffer.from(csv);
    const upload = (path: string, fields: Record<string, string>) => {
      const form = multipart(fields, { name: 'c.csv', type: 'text/csv', data: file });
      return s.t.app.inject({
        method: 'POST',
        url: `/api${path}`,
        payload: form.payload,
        headers: { authorization: `Bearer ${author}`, ...form.headers },
      });
    };
    const preview = await upload(api.candidateImportPreview.path, {});
    expect(preview.statusCode, preview.body).toBe(200);
    const sha256 = body<CandidateImportPreviewData>(preview).data.sha256;
    const started = await upload(api.candidateImport.path, { sha256 });
    expect(started.statusCode, started.body).toBe(200);
    const job = await waitForJob(s.t, author, body<{ job_id: number }>(started).data.job_id, 30_000);
    expect(job.state, JSON.stringify(job.error)).toBe('done');

    // After a staff update: fields emptied, and a degree written by hand.
    shapes.set(phone(++n), 'staff update: emptied');
    await staffUpdate(await staffCreate(phone(n), FULL), EMPTY);
    shapes.set(phone(++n), 'staff update: degree by hand');
    await staffUpdate(await staffCreate(phone(n), { name: '后填' }), { degree: '硕士', school: '武汉大学' });

    // The candidate's own profile: on a candidate who logged in by themselves, and over what staff stored.
    const profile = { name: '自填', school: '中山大学', major: '法学', degree: 'master', graduation_year: 2025 };
    shapes.set(phone(++n), 'own profile');
    await ownProfile(await login(phone(n)), profile);
    shapes.set(phone(++n), 'own profile over a staff record');
    await staffCreate(phone(n), { name: '员工录入', degree: '本科' });
    await ownProfile(await login(phone(n)), profile);
    shapes.set(phone(++n), 'staff update over an own profile');
    await ownProfile(await login(phone(n)), profile);
    const linked = await staffCreate(phone(n), { name: '自填' });
    await staffUpdate(linked, { school: '', degree: '', graduation_year: null });

    // Written by earlier versions, whose directory took any text as a degree.
    for (const degree of ['本科', '高中']) {
      shapes.set(phone(++n), `earlier version: degree ${degree}`);
      const old = await staffCreate(phone(n), { name: '旧数据' });
      await s.t.db.handle.db.updateTable('candidates').set({ degree }).where('id', '=', old.id).execute();
    }

    // Logged in with nothing filled.
    shapes.set(phone(++n), 'logged in, nothing filled');
    await login(phone(n));

    // Every shape is invited to one exam of the team, and every candidate logs in to read their own.
    const { examId } = await authoredExam(s.t, author, true);
    for (const p of shapes.keys()) await s.t.invite(examId, p);
    const ids = new Map<string, number>();
    for (const [p, what] of shapes) {
      const token = await login(p);
      const mine = await candidateCall<MyInfoData>('GET', '/user/my-info', token);
      expect(mine.http, `${what}: my-info ${mine.msg}`).toBe(200);
      const info = await candidateCall<{ id: number }>('GET', '/user/get-info', token);
      expect(info.http, `${what}: get-info ${info.msg}`).toBe(200);
      ids.set(p, info.data.id);
      const detail = await send<CandidateView>(api.candidateDetail, { query: { candidate_id: info.data.id } }, s.admin);
      expect(detail.http, `${what}: detail ${detail.msg}`).toBe(200);
      // One profile: the candidate and the staff read the same values.
      expect(
        {
          name: detail.data.name || null,
          school: detail.data.school || null,
          major: detail.data.major || null,
          degree: detail.data.degree || null,
          graduation_year: detail.data.graduation_year,
        },
        what,
      ).toEqual({
        name: mine.data.name || null,
        school: mine.data.school || null,
        major: mine.data.major || null,
        degree: mine.data.degree,
        graduation_year: mine.data.graduation_year,
      });
    }
    for (const token of [s.admin, author]) {
      const list = await send<CandidateListData>(api.candidateList, { query: { q: '1387200', page_size: 100 } }, token);
      expect(list.http, list.msg).toBe(200);
    }
    const listed = await send<ExamCandidatesData>(
      api.examCandidates,
      { query: { exam_id: examId, page_size: 100 } },
      author,
    );
    expect(listed.http, listed.msg).toBe(200);
    expect(listed.data.total).toBe(shapes.size);

    // What the staff view answers, the staff form takes back unchanged.
    for (const [p, what] of shapes) {
      const seen = await send<CandidateView>(api.candidateDetail, { query: { candidate_id: ids.get(p)! } }, s.admin);
      const { id, team_ids: _t, invitations: _i, created_at: _c, last_login_at: _l, ...fields } = seen.data;
      const saved = await send<CandidateView>(
        api.candidateUpdate,
        { body: { ...fields, candidate_id: id, name: fields.name || '补名' } },
        s.admin,
      );
      expect(saved.http, `${what}: re-saved ${saved.msg}`).toBe(200);
      expect(saved.data.degree, what).toBe(seen.data.degree);
    }
  }, 60_000);

  it('answers a signed-in candidate, the next moment, what staff, an import and they themselves wrote', async () => {
    const p = '13874000001';
    const token = await login(p);
    const nameNow = async () =>
      (await candidateCall<{ userInfo: { name: string | null } }>('GET', '/user/get-info', token)).data.userInfo.name;
    // Each process keeps the candidate behind a token a while (services/candidateSessions.ts): every write forgets it.
    expect(await nameNow()).toBeNull();
    const made = await staffCreate(p, { name: '员工加' });
    expect(await nameNow()).toBe('员工加');
    await staffUpdate(made, { name: '员工改' });
    expect(await nameNow()).toBe('员工改');

    const sheet = Buffer.from(`手机号,姓名\n${p},导入改\n`);
    const upload = (path: string, fields: Record<string, string>) => {
      const f = multipart(fields, { name: 'c.csv', type: 'text/csv', data: sheet });
      return s.t.app.inject({
        method: 'POST',
        url: `/api${path}`,
        payload: f.payload,
        headers: { authorization: `Bearer ${author}`, ...f.headers },
      });
    };
    const preview = await upload(api.candidateImportPreview.path, {});
    expect(preview.statusCode, preview.body).toBe(200);
    const started = await upload(api.candidateImport.path, {
      sha256: body<CandidateImportPreviewData>(preview).data.sha256,
    });
    expect(started.statusCode, started.body).toBe(200);
    const job = await waitForJob(s.t, author, body<{ job_id: number }>(started).data.job_id, 30_000);
    expect(job.state, JSON.stringify(job.error)).toBe('done');
    expect(await nameNow()).toBe('导入改');

    await ownProfile(token, {
      name: '自己改',
      school: '中山大学',
      major: '法学',
      degree: 'master',
      graduation_year: 2025,
    });
    expect(await nameNow()).toBe('自己改');
  });

  it('reads degrees as codes, whichever way staff or a file wrote them', async () => {
    const a = await staffCreate('13873000001', { name: '甲', degree: '本科' });
    const b = await staffCreate('13873000002', { name: '乙', degree: 'Master' });
    expect([a.degree, b.degree]).toEqual(['bachelor', 'master']);
    const mine = await candidateCall<MyInfoData>('GET', '/user/my-info', await login('13873000001'));
    expect([mine.http, mine.data.degree]).toEqual([200, 'bachelor']);
    const bad = await send(
      api.candidateCreate,
      { body: { phone: '13873000003', name: '丙', degree: '幼儿园' } },
      author,
    );
    expect(bad.http).toBe(422);
    expect(bad.msg).toMatch(/degree: /);
  });
});
