/**
 * Single sign-on's provisioning rules: the group mappings an admin edits (audited, checked, admins only), the
 * policy that requires single sign-on but of break-glass admins, and the rule that decides from a provider's
 * verified claims which account signs in (made from the claims, its team and role from the mapping; refused
 * without a mapping, when disabled, once its mapping is removed; never admin unless a mapping says so).
 */
import { api, type SsoGroupView, type StaffView } from '@examhall/contract';
import { describe, expect, it } from 'vitest';
import type { SsoClaims } from '../config.js';
import { AppError } from '../errors.js';
import { SsoSignInService, type VerifiedIdentity } from '../services/ssoSignIn.js';
import { body } from '../test/app.js';
import { auditEntriesOf } from '../test/auditLog.js';
import { freshPhone, sendCall } from '../test/callWorld.js';
import { testedDialects } from '../test/db.js';
import { adminApp } from '../test/examScenario.js';

const CLAIMS: SsoClaims = { name: 'Corp', accountClaim: 'phone_number', accountKind: 'phone', groupsClaim: 'groups' };
const EMAIL_CLAIMS: SsoClaims = { ...CLAIMS, accountClaim: 'email', accountKind: 'email' };

let subjects = 0;
function identity(claims: Record<string, unknown>, subject = `sub-${++subjects}`): VerifiedIdentity {
  return { method: 'oidc', issuer: 'https://idp.example.com', subject, claims };
}

describe.each(await testedDialects())('single sign-on provisioning on %s', (dialect) => {
  const s = adminApp(dialect, { seed: false });

  const mapGroup = async (group: string, teamId: number | null, role: StaffView['role']) => {
    const res = await sendCall(s.t, api.ssoGroupCreate, { body: { group, team_id: teamId, role } }, s.admin);
    expect(res.statusCode, res.body).toBe(200);
    return body<SsoGroupView>(res).data;
  };
  const refusal = async (work: Promise<unknown>): Promise<string> => {
    try {
      await work;
    } catch (err) {
      if (err instanceof AppError) return err.code;
      throw err;
    }
    throw new Error('the sign-in was let in');
  };
  const staffRow = (id: number) =>
    s.t.db.handle.db.selectFrom('staff').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('an admin maps groups to teams and roles; each change is audited; a wrong target is bad input', async () => {
    const team = await s.t.team(`Recruiting ${dialect}`);
    const made = await mapGroup(`recruiters-${dialect}`, team, 'author');
    expect(made).toMatchObject({ group: `recruiters-${dialect}`, team_id: team, role: 'author' });
    const list = await sendCall(s.t, api.ssoGroupList, {}, s.admin);
    expect(body<{ list: SsoGroupView[] }>(list).data.list.map((g) => g.id)).toContain(made.id);

    const changed = await sendCall(s.t, api.ssoGroupUpdate, { body: { id: made.id, role: 'grader' } }, s.admin);
    expect(body<SsoGroupView>(changed).data.role).toBe('grader');
    // Only admins span every team: another role without a team, a missing team, a name taken.
    const noTeam = await sendCall(
      s.t,
      api.ssoGroupCreate,
      { body: { group: 'x', team_id: null, role: 'author' } },
      s.admin,
    );
    expect(body(noTeam).code).toBe('validation_error');
    const badTeam = await sendCall(
      s.t,
      api.ssoGroupCreate,
      { body: { group: 'y', team_id: 999_999, role: 'author' } },
      s.admin,
    );
    expect(body(badTeam).code).toBe('validation_error');
    const twice = await sendCall(
      s.t,
      api.ssoGroupCreate,
      { body: { group: `recruiters-${dialect}`, team_id: team, role: 'author' } },
      s.admin,
    );
    expect(twice.statusCode).toBe(409);
    const removed = await sendCall(s.t, api.ssoGroupDelete, { body: { id: made.id } }, s.admin);
    expect(removed.statusCode).toBe(200);

    const entries = [
      ...(await auditEntriesOf(s.t, 'sso.group.create', made.id)),
      ...(await auditEntriesOf(s.t, 'sso.group.update', made.id)),
      ...(await auditEntriesOf(s.t, 'sso.group.delete', made.id)),
    ];
    expect(entries.map((e) => e.action)).toEqual(['sso.group.create', 'sso.group.update', 'sso.group.delete']);
    expect(JSON.parse(entries[1]!.before!)).toMatchObject({ role: 'author' });
    expect(JSON.parse(entries[1]!.after!)).toMatchObject({ role: 'grader' });
  });

  it('only admins see or change the mappings and the policy', async () => {
    const author = await s.t.loginStaff('author');
    for (const [call, input] of [
      [api.ssoGroupList, {}],
      [api.ssoGroupCreate, { body: { group: 'g', team_id: null, role: 'admin' } }],
      [api.ssoSettings, {}],
      [api.ssoSettingsUpdate, { body: { required: false, break_glass: [] } }],
    ] as const) {
      expect((await sendCall(s.t, call, input, author)).statusCode).toBe(403);
    }
  });

  it('makes an account from the claims, in the mapped team and role, and signs it in with a session of its method', async () => {
    const team = await s.t.team(`Campus ${dialect}`);
    await mapGroup(`campus-${dialect}`, team, 'author');
    const phone = freshPhone('137');
    const session = await s.t.services.ssoSignIn.signIn(
      identity({ phone_number: `+86 ${phone}`, name: 'Li Lei', groups: [`campus-${dialect}`, 'unmapped'] }),
      CLAIMS,
      { ip: '203.0.113.9', userAgent: 'Test' },
    );
    const row = await staffRow(session.staffId);
    expect(row).toMatchObject({ phone, name: 'Li Lei', role: 'author', team_id: team, disabled: 0 });
    const me = await sendCall(s.t, api.staffSessions, {}, session.token);
    expect(body<{ list: { method: string }[] }>(me).data.list).toMatchObject([{ method: 'oidc' }]);
    const [created] = await auditEntriesOf(s.t, 'staff.create', row.id);
    expect(created).toMatchObject({ actor_kind: 'system', detail: 'oidc' });
    const [login] = await auditEntriesOf(s.t, 'staff.login', row.id);
    expect(JSON.parse(login!.after!)).toEqual({ method: 'oidc' });
  });

  it('refuses a sign-in whose groups no mapping names, and a claim that names nobody', async () => {
    const code = await refusal(
      s.t.services.ssoSignIn.signIn(
        identity({ phone_number: freshPhone('137'), groups: ['nobody-maps-this'] }),
        CLAIMS,
        {
          ip: '203.0.113.9',
          userAgent: undefined,
        },
      ),
    );
    expect(code).toBe('sso_no_mapped_team');
    const team = await s.t.team(`Claims ${dialect}`);
    await mapGroup(`claims-${dialect}`, team, 'proctor');
    const missing = await refusal(s.t.services.ssoSignIn.account(identity({ groups: [`claims-${dialect}`] }), CLAIMS));
    expect(missing).toBe('sso_claim_missing');
  });

  it('finds an account again by its subject, refuses it disabled, and refuses it once its mapping is removed', async () => {
    const team = await s.t.team(`Follow ${dialect}`);
    const mapping = await mapGroup(`follow-${dialect}`, team, 'grader');
    const who = identity(
      { email: `Zhang.Wei+${dialect}@Example.com`, groups: `follow-${dialect}` },
      `follow-${dialect}`,
    );
    const first = await s.t.services.ssoSignIn.account(who, EMAIL_CLAIMS);
    expect(first).toMatchObject({ phone: `zhang.wei+${dialect}@example.com`, role: 'grader', team_id: team });
    // The provider's e-mail changed: the subject still finds the same account.
    const again = await s.t.services.ssoSignIn.account(
      { ...who, claims: { ...who.claims, email: 'other@example.com' } },
      EMAIL_CLAIMS,
    );
    expect(again.id).toBe(first.id);

    await sendCall(s.t, api.staffUpdate, { body: { id: first.id, disabled: true } }, s.admin);
    expect(await refusal(s.t.services.ssoSignIn.account(who, EMAIL_CLAIMS))).toBe('sso_account_disabled');
    await sendCall(s.t, api.staffUpdate, { body: { id: first.id, disabled: false } }, s.admin);
    await s.t.services.ssoSignIn.account(who, EMAIL_CLAIMS);

    await sendCall(s.t, api.ssoGroupDelete, { body: { id: mapping.id } }, s.admin);
    expect(await refusal(s.t.services.ssoSignIn.account(who, EMAIL_CLAIMS))).toBe('sso_no_mapped_team');
  });

  it('moves an account to its mapping at each sign-in, ending its sessions, and never makes an admin without a mapping', async () => {
    const teamA = await s.t.team(`Move A ${dialect}`);
    const teamB = await s.t.team(`Move B ${dialect}`);
    await mapGroup(`move-a-${dialect}`, teamA, 'author');
    await mapGroup(`move-b-${dialect}`, teamB, 'proctor');
    const phone = freshPhone('137');
    const who = identity({ phone_number: phone, groups: [`move-a-${dialect}`], role: 'admin', admin: true });
    const origin = { ip: '203.0.113.9', userAgent: undefined };
    const first = await s.t.services.ssoSignIn.signIn(who, CLAIMS, origin);
    expect(await staffRow(first.staffId)).toMatchObject({ role: 'author', team_id: teamA });

    const moved = await s.t.services.ssoSignIn.signIn(
      { ...who, claims: { ...who.claims, groups: [`move-b-${dialect}`] } },
      CLAIMS,
      origin,
    );
    expect(moved.staffId).toBe(first.staffId);
    expect(await staffRow(first.staffId)).toMatchObject({ role: 'proctor', team_id: teamB });
    expect((await sendCall(s.t, api.staffMe, {}, first.token)).statusCode).toBe(401);
    expect((await sendCall(s.t, api.staffMe, {}, moved.token)).statusCode).toBe(200);
    const [provisioned] = await auditEntriesOf(s.t, 'staff.sso_provision', first.staffId);
    expect(JSON.parse(provisioned!.before!)).toMatchObject({ role: 'author', team_id: teamA });
    expect(JSON.parse(provisioned!.after!)).toMatchObject({ role: 'proctor', team_id: teamB });

    // Only a mapping makes an admin: both groups now, the admin mapping's role wins.
    await mapGroup(`admins-${dialect}`, null, 'admin');
    await s.t.services.ssoSignIn.signIn(
      { ...who, claims: { ...who.claims, groups: [`move-b-${dialect}`, `admins-${dialect}`] } },
      CLAIMS,
      origin,
    );
    expect(await staffRow(first.staffId)).toMatchObject({ role: 'admin', team_id: null });
  });

  it('refuses an account it may not make when the operator turned making accounts off', async () => {
    const team = await s.t.team(`Known ${dialect}`);
    await mapGroup(`known-${dialect}`, team, 'author');
    const closed = new SsoSignInService(s.t.db.handle.db, {
      config: { ssoCreateAccounts: false, staffTotpRequiredForAdmins: false },
      tokens: s.t.services.tokens,
      audit: s.t.services.audit,
      credentials: { passwords: s.t.services.staff.passwords },
      clock: () => s.t.now(),
    });
    const code = await refusal(
      closed.account(identity({ phone_number: freshPhone('137'), groups: [`known-${dialect}`] }), CLAIMS),
    );
    expect(code).toBe('sso_unknown_account');
  });

  it('requiring single sign-on refuses the password of all but the break-glass admins, and is audited', async () => {
    const noProvider = await sendCall(
      s.t,
      api.ssoSettingsUpdate,
      { body: { required: true, break_glass: [] } },
      s.admin,
    );
    // This app has no provider set up: requiring one would lock everyone out.
    expect(body(noProvider).code).toBe('validation_error');
  });
});
