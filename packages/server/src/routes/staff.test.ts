/** Staff accounts completed: edit, change role and team, disable, reset password, the last admin, duplicates. */
import { api, type StaffListData, type StaffView, type TeamView } from '@examhall/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { body, TEST_ADMIN } from '../test/app.js';
import { freshPhone, sendCall } from '../test/callWorld.js';
import { auditEntriesOf } from '../test/auditLog.js';
import { testedDialects } from '../test/db.js';
import { adminApp } from '../test/examScenario.js';

const PASSWORD = 'password-1';

describe.each(await testedDialects())('staff accounts on %s', (dialect) => {
  const s = adminApp(dialect, { seed: false });
  let teamId = 0;

  beforeAll(async () => {
    const team = await sendCall(s.t, api.teamCreate, { body: { name: 'Recruiting' } }, s.admin);
    teamId = body<TeamView>(team).data.id;
  });

  const create = async (role: StaffView['role'], extra: Record<string, unknown> = {}) => {
    const phone = freshPhone('131');
    const res = await sendCall(
      s.t,
      api.staffCreate,
      { body: { phone, area_code: '86', name: `A ${role}`, role, password: PASSWORD, ...extra } },
      s.admin,
    );
    expect(res.statusCode, res.body).toBe(200);
    return { ...body<StaffView>(res).data, phone };
  };
  const update = (input: Record<string, unknown>, token = s.admin) =>
    sendCall(s.t, api.staffUpdate, { body: input }, token);
  const login = (phone: string, password = PASSWORD) =>
    s.t.app.inject({ method: 'POST', url: '/api/admin/auth/login', payload: { phone, password } });
  const tokenOf = async (phone: string, password = PASSWORD) => {
    const res = await login(phone, password);
    expect(res.statusCode, res.body).toBe(200);
    return body<{ token: string }>(res).data.token;
  };
  const me = (token: string) => sendCall(s.t, api.staffMe, {}, token);

  it('creates an account in a team and edits its name, role and team; the account signs in again to its new role', async () => {
    const grader = await create('grader', { team_id: teamId });
    expect(grader).toMatchObject({ role: 'grader', team_id: teamId, team_name: 'Recruiting', disabled: false });
    const token = await tokenOf(grader.phone);
    expect((await sendCall(s.t, api.proctorExams, {}, token)).statusCode).toBe(403);

    const res = await update({ id: grader.id, name: 'Now a proctor', role: 'proctor', team_id: null });
    expect(res.statusCode, res.body).toBe(200);
    expect(body<StaffView>(res).data).toMatchObject({
      id: grader.id,
      name: 'Now a proctor',
      role: 'proctor',
      team_id: null,
      team_name: null,
      permissions: expect.arrayContaining(['proctor.watch']),
    });
    // What the account may do changed: its session ended, and a new one has the new role.
    expect((await sendCall(s.t, api.proctorExams, {}, token)).statusCode).toBe(401);
    expect((await sendCall(s.t, api.proctorExams, {}, await tokenOf(grader.phone))).statusCode).toBe(200);
    const list = body<StaffListData>(await sendCall(s.t, api.staffList, {}, s.admin)).data.list;
    expect(list.find((s) => s.id === grader.id)).toMatchObject({ name: 'Now a proctor', role: 'proctor' });
    // Fields not given stay.
    const renamed = body<StaffView>(await update({ id: grader.id, team_id: teamId })).data;
    expect(renamed).toMatchObject({ name: 'Now a proctor', role: 'proctor', team_name: 'Recruiting' });
  });

  it("disables an account: its tokens stop working at once, it can't log in, and enabling it needs a new login", async () => {
    const author = await create('author');
    const token = await tokenOf(author.phone);
    expect((await me(token)).statusCode).toBe(200);
    const res = await update({ id: author.id, disabled: true });
    expect(body<StaffView>(res).data.disabled).toBe(true);
    expect((await me(token)).statusCode).toBe(401);
    expect(body(await login(author.phone)).code).toBe('invalid_credentials');
    await update({ id: author.id, disabled: false });
    expect((await me(token)).statusCode).toBe(401);
    expect((await me(await tokenOf(author.phone))).statusCode).toBe(200);
  });

  it('resets a password: the old one and every token stop working, the new one works, the log keeps no secret', async () => {
    const proctor = await create('proctor');
    const token = await tokenOf(proctor.phone);
    const res = await sendCall(
      s.t,
      api.staffResetPassword,
      { body: { id: proctor.id, password: 'brand-new-pass' } },
      s.admin,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect((await me(token)).statusCode).toBe(401);
    expect(body(await login(proctor.phone)).code).toBe('invalid_credentials');
    expect((await me(await tokenOf(proctor.phone, 'brand-new-pass'))).statusCode).toBe(200);
    const entries = await auditEntriesOf(s.t, 'staff.reset_password', proctor.id);
    expect(entries).toHaveLength(1);
    expect(JSON.stringify(entries)).not.toMatch(/brand-new-pass|argon2/);
    // A too short password is refused as input.
    const short = await sendCall(s.t, api.staffResetPassword, { body: { id: proctor.id, password: 'short' } }, s.admin);
    expect([short.statusCode, body(short).code]).toEqual([422, 'validation_error']);
  });

  it('keeps one enabled admin: the last one can neither disable nor demote itself; with two, one may step down', async () => {
    const self = (await s.t.services.staff.resolve(s.admin))!;
    for (const change of [{ disabled: true }, { role: 'author' }]) {
      const res = await update({ id: self.id, ...change });
      expect([res.statusCode, body(res).code]).toEqual([409, 'last_admin']);
    }
    expect((await me(s.admin)).statusCode).toBe(200);
    // A disabled admin does not count.
    const second = await create('admin');
    await update({ id: second.id, disabled: true });
    expect(body(await update({ id: self.id, role: 'grader' })).code).toBe('last_admin');
    await update({ id: second.id, disabled: false });
    const stepDown = await update({ id: self.id, role: 'author' });
    expect(stepDown.statusCode, stepDown.body).toBe(200);
    // Now the second admin is the last one.
    const secondToken = await tokenOf(second.phone);
    const last = await update({ id: second.id, disabled: true }, secondToken);
    expect(body(last).code).toBe('last_admin');
    // Put the first admin back for the other tests: stepping down ended its session, so it signs in again.
    expect((await me(s.admin)).statusCode).toBe(401);
    expect((await update({ id: self.id, role: 'admin' }, secondToken)).statusCode).toBe(200);
    expect(self.phone).toBe(TEST_ADMIN.phone);
    s.admin = await tokenOf(TEST_ADMIN.phone, TEST_ADMIN.password);
  });

  it('answers 409 for a phone taken, even by five creations at once, 404 for an unknown team or account', async () => {
    const phone = freshPhone('131');
    const input = { body: { phone, area_code: '86', name: 'Twin', role: 'grader', password: PASSWORD } };
    const five = await Promise.all(Array.from({ length: 5 }, () => sendCall(s.t, api.staffCreate, input, s.admin)));
    expect(five.map((r) => r.statusCode).sort(), five.map((r) => r.body).join('\n')).toEqual([200, 409, 409, 409, 409]);
    for (const r of five.filter((r) => r.statusCode === 409)) expect(body(r).code).toBe('conflict');

    const noTeam = await sendCall(
      s.t,
      api.staffCreate,
      { body: { ...input.body, phone: freshPhone('131'), team_id: 999_999 } },
      s.admin,
    );
    // A team named in the body is checked like every id a call names (http/route.ts): a missing one is not found.
    expect([noTeam.statusCode, body(noTeam).msg]).toEqual([404, 'no such team 999999']);
    const badTeam = await update({ id: (await create('grader')).id, team_id: 999_999 });
    expect([badTeam.statusCode, body(badTeam).msg]).toEqual([404, 'no such team 999999']);
    const missing = await update({ id: 999_999, name: 'Nobody' });
    expect([missing.statusCode, body(missing).msg]).toEqual([404, 'no such staff 999999']);
  });

  it('refuses account changes to other roles, and bad input without a 500', async () => {
    const author = await create('author');
    const token = await tokenOf(author.phone);
    const res = await update({ id: author.id, role: 'admin' }, token);
    expect([res.statusCode, body(res).code]).toEqual([403, 'forbidden']);
    for (const bad of [{}, { id: 'x' }, { id: 1, role: 'boss' }, { id: 1, name: '' }, { id: 1, disabled: 'yes' }]) {
      const r = await update(bad);
      expect(r.statusCode, JSON.stringify(bad)).toBe(422);
    }
  });
});
