/**
 * The job calls: who sees which jobs, filters and sort, one job, cancel (and `job_finished` once it ended); within a
 * team, proctors and graders follow only their own jobs and their exams', and only owners, the team's authors and
 * admins cancel.
 */
import { api, type JobListData, type JobView, type StaffRole } from '@examhall/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JobRepository } from '../repositories/jobs.js';
import { body, createTestApp, TEST_ADMIN, type TestApp } from '../test/app.js';
import { sendCall } from '../test/callWorld.js';
import { testedDialects } from '../test/db.js';
import { adminApp } from '../test/examScenario.js';

describe.each(await testedDialects())('job calls on %s', (dialect) => {
  const s = adminApp(dialect, { seed: false });
  let author: string;
  const ids = { own: 0, team: 0, done: 0 };

  /** A job another process holds (so no runner here takes it), of a staff member and team. */
  async function held(title: string, staffId: number | null, teamId: number | null, state = 'running') {
    const db = s.t.db.handle.db;
    const id = await new JobRepository(db).insert({
      kind: 'bank_import',
      payload: JSON.stringify({ title }),
      owner_staff_id: staffId,
      team_id: teamId,
      created_at: s.t.now(),
    });
    await db
      .updateTable('job')
      .set({ state, locked_by: state === 'running' ? 'elsewhere' : null, lease_until: Date.now() + 3_600_000 })
      .where('id', '=', id)
      .execute();
    return id;
  }

  beforeAll(async () => {
    author = await s.t.loginStaff('author');
    const me = (await s.t.services.staff.resolve(author))!;
    const adminId = (await s.t.services.staff.resolve(s.admin))!.id;
    const team = await s.t.team('Other team');
    ids.own = await held('mine.gift', me.id, null);
    ids.team = await held('theirs.gift', adminId, team);
    ids.done = await held('finished.gift', me.id, null, 'done');
  });

  const list = async (token: string, query: Record<string, string | number> = {}) => {
    const res = await sendCall(s.t, api.jobList, { query }, token);
    expect(res.statusCode, res.body).toBe(200);
    return body<JobListData>(res).data;
  };

  it("lists one's own jobs to a staff member without the team, and every job to an admin", async () => {
    const mine = await list(author);
    expect(mine.list.map((j) => j.title).sort()).toEqual(['finished.gift', 'mine.gift']);
    expect(mine.list[0]).toMatchObject({ owner_name: 'author', kind: 'bank_import' });
    const all = await list(s.admin);
    expect(all.total).toBe(3);
    expect((await list(s.admin, { state: 'done' })).list.map((j) => j.id)).toEqual([ids.done]);
    expect((await list(s.admin, { sort: 'created', order: 'asc', page_size: 1 })).list.map((j) => j.id)).toEqual([
      ids.own,
    ]);
    const bad = await sendCall(s.t, api.jobList, { query: { state: 'sleeping' } }, s.admin);
    expect([bad.statusCode, body(bad).code]).toEqual([422, 'validation_error']);
  });

  it("answers 404 for another team's job, and shows one's own", async () => {
    const foreign = await sendCall(s.t, api.jobDetail, { query: { job_id: ids.team } }, author);
    expect([foreign.statusCode, body(foreign).code]).toEqual([404, 'not_found']);
    const own = await sendCall(s.t, api.jobDetail, { query: { job_id: ids.own } }, author);
    expect(body<JobView>(own).data).toMatchObject({ id: ids.own, state: 'running', title: 'mine.gift' });
  });

  it('cancels a running job (its runner sees the request) and refuses a finished one with job_finished', async () => {
    const res = await sendCall(s.t, api.jobCancel, { body: { job_id: ids.own } }, author);
    expect(body<JobView>(res).data).toMatchObject({ state: 'running', cancel_requested: true });
    const done = await sendCall(s.t, api.jobCancel, { body: { job_id: ids.done } }, author);
    expect([done.statusCode, body(done).code]).toEqual([409, 'job_finished']);
  });
});

describe.each(await testedDialects())('who follows and who cancels a team job on %s', (dialect) => {
  let t: TestApp;
  let examId: number;
  const tokens: Record<'admin' | 'author' | 'otherAuthor' | 'grader' | 'idleGrader' | 'proctor', string> = {
    admin: '',
    author: '',
    otherAuthor: '',
    grader: '',
    idleGrader: '',
    proctor: '',
  };
  const jobs = { bank: 0, export: 0, gradersOwn: 0 };
  let members = 0;

  /** A team member of a role; answers their id and token. */
  async function member(role: StaffRole, teamId: number, name: string) {
    members += 1;
    const phone = `1391000${String(members).padStart(4, '0')}`;
    const created = await sendCall(
      t,
      api.staffCreate,
      { body: { phone, area_code: '86', name, role, password: TEST_ADMIN.password, team_id: teamId } },
      tokens.admin,
    );
    expect(created.statusCode, created.body).toBe(200);
    const token = (await t.services.staffLogin.login(phone, TEST_ADMIN.password, { ip: '127.0.0.1' })).token;
    return { id: body<{ id: number }>(created).data.id, token };
  }

  /** A running job held by another process: a kind, its owner, the team and the exam it names. */
  async function held(kind: string, title: string, owner: number, teamId: number, exam: number | null) {
    const db = t.db.handle.db;
    const id = await new JobRepository(db).insert({
      kind,
      payload: JSON.stringify(exam === null ? { title } : { title, exam_id: exam }),
      owner_staff_id: owner,
      team_id: teamId,
      exam_id: exam,
      created_at: t.now(),
    });
    await db
      .updateTable('job')
      .set({ state: 'running', locked_by: 'elsewhere', lease_until: Date.now() + 3_600_000 })
      .where('id', '=', id)
      .execute();
    return id;
  }

  beforeAll(async () => {
    t = await createTestApp(dialect);
    tokens.admin = await t.loginStaff('admin');
    ({ examId } = await t.seed('13800138000'));
    const team = await t.team('Campus team');
    await t.db.handle.db.updateTable('exams').set({ team_id: team }).where('id', '=', examId).execute();
    const author = await member('author', team, 'Author');
    const grader = await member('grader', team, 'Grader');
    const proctor = await member('proctor', team, 'Proctor');
    tokens.author = author.token;
    tokens.otherAuthor = (await member('author', team, 'Second author')).token;
    tokens.grader = grader.token;
    tokens.idleGrader = (await member('grader', team, 'Idle grader')).token;
    tokens.proctor = proctor.token;
    for (const [staff, role] of [
      [grader.id, 'grader'],
      [proctor.id, 'proctor'],
    ] as const) {
      await t.db.handle.db
        .insertInto('exam_staff')
        .values({ exam_id: examId, staff_id: staff, role, created_at: t.now() })
        .execute();
    }
    jobs.bank = await held('bank_import', 'salaries.gift', author.id, team, null);
    jobs.export = await held('results_export', 'Results of the campus exam', author.id, team, examId);
    jobs.gradersOwn = await held('code_similarity', 'Similarity of question 3', grader.id, team, examId);
  });
  afterAll(async () => t.close());

  const titles = async (who: keyof typeof tokens) => {
    const res = await sendCall(t, api.jobList, { query: {} }, tokens[who]);
    expect(res.statusCode, res.body).toBe(200);
    return body<JobListData>(res)
      .data.list.map((j) => j.title)
      .sort();
  };

  it("lists to a proctor or grader only their own jobs and those of the exams they are assigned to; authors the team's", async () => {
    expect(await titles('idleGrader')).toEqual([]);
    expect(await titles('grader')).toEqual(['Results of the campus exam', 'Similarity of question 3']);
    expect(await titles('proctor')).toEqual(['Results of the campus exam', 'Similarity of question 3']);
    expect(await titles('otherAuthor')).toEqual([
      'Results of the campus exam',
      'Similarity of question 3',
      'salaries.gift',
    ]);
    const detail = async (who: keyof typeof tokens, jobId: number) =>
      (await sendCall(t, api.jobDetail, { query: { job_id: jobId } }, tokens[who])).statusCode;
    expect(await detail('idleGrader', jobs.export)).toBe(404);
    expect(await detail('grader', jobs.bank)).toBe(404);
    expect(await detail('grader', jobs.export)).toBe(200);
  });

  it("cancels only for the job's owner, an author of its team or an admin; others who follow it get job_cancel_forbidden", async () => {
    const cancel = async (who: keyof typeof tokens, jobId: number) => {
      const res = await sendCall(t, api.jobCancel, { body: { job_id: jobId } }, tokens[who]);
      return [res.statusCode, body(res).code ?? body<JobView>(res).data.cancel_requested];
    };
    expect(await cancel('grader', jobs.export)).toEqual([403, 'job_cancel_forbidden']);
    expect(await cancel('proctor', jobs.gradersOwn)).toEqual([403, 'job_cancel_forbidden']);
    expect(await cancel('idleGrader', jobs.bank)).toEqual([404, 'not_found']);
    expect(
      await t.db.handle.db.selectFrom('job').select('cancel_requested').where('cancel_requested', '=', 1).execute(),
    ).toEqual([]);
    expect(await cancel('grader', jobs.gradersOwn)).toEqual([200, true]);
    expect(await cancel('otherAuthor', jobs.export)).toEqual([200, true]);
    expect(await cancel('admin', jobs.bank)).toEqual([200, true]);
  });

  it('a job started on an exam names it, so its assigned grader follows it', async () => {
    const started = await sendCall(t, api.resultsExport, { body: { exam_id: examId, format: 'csv' } }, tokens.author);
    expect(started.statusCode, started.body).toBe(200);
    const jobId = body<{ job_id: number }>(started).data.job_id;
    const row = await t.db.handle.db
      .selectFrom('job')
      .select('exam_id')
      .where('id', '=', jobId)
      .executeTakeFirstOrThrow();
    expect(row.exam_id).toBe(examId);
    expect((await sendCall(t, api.jobDetail, { query: { job_id: jobId } }, tokens.grader)).statusCode).toBe(200);
    expect((await sendCall(t, api.jobDetail, { query: { job_id: jobId } }, tokens.idleGrader)).statusCode).toBe(404);
  });
});
