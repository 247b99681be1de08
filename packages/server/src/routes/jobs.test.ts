/** The job calls: who sees which jobs, filters and sort, one job, cancel (and `job_finished` once it ended). */
import { api, type JobListData, type JobView } from '@examhall/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JobRepository } from '../repositories/jobs.js';
import { body, createTestApp, type TestApp } from '../test/app.js';
import { sendCall } from '../test/callFixtures.js';
import { testedDialects } from '../test/db.js';

describe.each(await testedDialects())('job calls on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let author: string;
  const ids = { own: 0, team: 0, done: 0 };

  /** A job another process holds (so no runner here takes it), of a staff member and team. */
  async function held(title: string, staffId: number | null, teamId: number | null, state = 'running') {
    const db = t.db.handle.db;
    const id = await new JobRepository(db).insert({
      kind: 'bank_import',
      payload: JSON.stringify({ title }),
      owner_staff_id: staffId,
      team_id: teamId,
      created_at: t.now(),
    });
    await db
      .updateTable('job')
      .set({ state, locked_by: state === 'running' ? 'elsewhere' : null, lease_until: Date.now() + 3_600_000 })
      .where('id', '=', id)
      .execute();
    return id;
  }

  beforeAll(async () => {
    t = await createTestApp(dialect);
    admin = await t.loginStaff('admin');
    author = await t.loginStaff('author');
    const me = (await t.services.staff.resolve(author))!;
    const adminId = (await t.services.staff.resolve(admin))!.id;
    const team = await t.team('Other team');
    ids.own = await held('mine.gift', me.id, null);
    ids.team = await held('theirs.gift', adminId, team);
    ids.done = await held('finished.gift', me.id, null, 'done');
  });
  afterAll(async () => t.close());

  const list = async (token: string, query: Record<string, string | number> = {}) => {
    const res = await sendCall(t, api.jobList, { query }, token);
    expect(res.statusCode, res.body).toBe(200);
    return body<JobListData>(res).data;
  };

  it("lists one's own jobs to a staff member without the team, and every job to an admin", async () => {
    const mine = await list(author);
    expect(mine.list.map((j) => j.title).sort()).toEqual(['finished.gift', 'mine.gift']);
    expect(mine.list[0]).toMatchObject({ owner_name: 'author', kind: 'bank_import' });
    const all = await list(admin);
    expect(all.total).toBe(3);
    expect((await list(admin, { state: 'done' })).list.map((j) => j.id)).toEqual([ids.done]);
    expect((await list(admin, { sort: 'created', order: 'asc', page_size: 1 })).list.map((j) => j.id)).toEqual([
      ids.own,
    ]);
    const bad = await sendCall(t, api.jobList, { query: { state: 'sleeping' } }, admin);
    expect([bad.statusCode, body(bad).code]).toEqual([422, 'validation_error']);
  });

  it("answers 404 for another team's job, and shows one's own", async () => {
    const foreign = await sendCall(t, api.jobDetail, { query: { job_id: ids.team } }, author);
    expect([foreign.statusCode, body(foreign).code]).toEqual([404, 'not_found']);
    const own = await sendCall(t, api.jobDetail, { query: { job_id: ids.own } }, author);
    expect(body<JobView>(own).data).toMatchObject({ id: ids.own, state: 'running', title: 'mine.gift' });
  });

  it('cancels a running job (its runner sees the request) and refuses a finished one with job_finished', async () => {
    const res = await sendCall(t, api.jobCancel, { body: { job_id: ids.own } }, author);
    expect(body<JobView>(res).data).toMatchObject({ state: 'running', cancel_requested: true });
    const done = await sendCall(t, api.jobCancel, { body: { job_id: ids.done } }, author);
    expect([done.statusCode, body(done).code]).toEqual([409, 'job_finished']);
  });
});
