/**
 * OpenID Connect sign-in against a real provider (oidc-provider) started here on a random port, driven over HTTP
 * as a browser would: a sign-in with PKCE lands in the console with a session of its method, in the team and role
 * its groups are mapped to; a tampered ID token, a wrong nonce, a wrong audience, an expired token, one issued in the
 * future and a state from another browser are refused, each with its own code on the login page; a removed mapping
 * is refused at the next sign-in.
 */
import { api, STAFF_AUTH_COOKIE, type SsoGroupView } from '@examhall/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { body, createTestApp, TEST_ADMIN, type TestApp } from '../test/app.js';
import { auditEntriesOf } from '../test/auditLog.js';
import { freshPhone, sendCall } from '../test/callWorld.js';
import { testedDialects } from '../test/db.js';
import { jwtClaims, startOidcProvider, type TestOidcProvider } from '../test/oidcProvider.js';

describe.each(await testedDialects())('OpenID Connect sign-in on %s', (dialect) => {
  let t: TestApp;
  let idp: TestOidcProvider;
  let admin: string;
  let teamId: number;
  let mapping: SsoGroupView;
  const redirectUri = 'http://localhost:3000/api/admin/auth/oidc/callback';

  beforeAll(async () => {
    idp = await startOidcProvider(redirectUri);
    t = await createTestApp(dialect, {
      env: {
        OIDC_ISSUER: idp.issuer,
        OIDC_CLIENT_ID: idp.clientId,
        OIDC_CLIENT_SECRET: idp.clientSecret,
        OIDC_SCOPES: 'openid profile phone groups',
        OIDC_NAME: 'Corp ID',
      },
    });
    admin = await t.loginStaff('admin');
    teamId = await t.team('Campus hiring');
    const res = await sendCall(
      t,
      api.ssoGroupCreate,
      { body: { group: 'hr-campus', team_id: teamId, role: 'author' } },
      admin,
    );
    mapping = body<SsoGroupView>(res).data;
  });
  afterAll(async () => {
    await t?.close();
    await idp?.close();
  });

  /** A browser's sign-in: start, the provider's steps over HTTP (its cookies kept), then the callback. */
  const signIn = async (opts: { state?: string } = {}) => {
    const start = await t.app.inject({ method: 'GET', url: '/api/admin/auth/oidc/start?redirect=/admin/exams' });
    expect(start.statusCode, start.body).toBe(302);
    const stateCookie = start.cookies.find((c) => c.name === 'oidc_state')!.value;
    let url = String(start.headers.location);
    const authorize = new URL(url);
    expect(authorize.origin).toBe(idp.issuer);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('nonce')).toBeTruthy();
    const jar = new Map<string, string>();
    for (let hop = 0; hop < 10 && !url.startsWith(redirectUri); hop++) {
      const res = await fetch(url, {
        redirect: 'manual',
        headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
      });
      for (const line of res.headers.getSetCookie()) {
        const [pair = ''] = line.split(';');
        const at = pair.indexOf('=');
        jar.set(pair.slice(0, at), pair.slice(at + 1));
      }
      const next = res.headers.get('location');
      if (!next) throw new Error(`the provider stopped at ${url}: ${res.status} ${await res.text()}`);
      url = new URL(next, url).href;
    }
    const back = await t.app.inject({
      method: 'GET',
      url: `/api/admin/auth/oidc/callback${new URL(url).search}`,
      cookies: { oidc_state: opts.state ?? stateCookie },
      headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0' },
    });
    expect(back.statusCode, back.body).toBe(302);
    return {
      location: String(back.headers.location),
      token: back.cookies.find((c) => c.name === STAFF_AUTH_COOKIE)?.value,
    };
  };
  const user = (groups: string[], phone = freshPhone('136')) => {
    idp.user = { sub: `sub-${phone}`, claims: { phone_number: `+86${phone}`, name: `User ${phone}`, groups } };
    return phone;
  };
  /** Replaces the ID token by one signed with the provider's own key, its claims changed by `change`. */
  const resign = (change: (claims: Record<string, unknown>) => Record<string, unknown>) => {
    idp.tamper = (idToken) => idp.signIdToken(change(jwtClaims(idToken)));
  };
  const refused = async () => {
    try {
      return new URL((await signIn()).location, 'http://x').searchParams.get('sso_error');
    } finally {
      idp.tamper = null;
    }
  };

  it('offers the provider on the login page', async () => {
    const res = await sendCall(t, api.ssoOptions, {}, '');
    expect(body(res).data).toEqual({
      oidc: { name: 'Corp ID', start_path: '/api/admin/auth/oidc/start' },
      saml: null,
      required: false,
    });
  });

  it('signs in with PKCE into the mapped team and role, with a session of its method, audited by method', async () => {
    const phone = user(['hr-campus', 'everyone']);
    const { location, token } = await signIn();
    expect(location).toBe('/admin/exams');
    expect(token).toBeTruthy();
    const me = body<{ phone: string; role: string; team_id: number }>(await sendCall(t, api.staffMe, {}, token!)).data;
    expect(me).toMatchObject({ phone, role: 'author', team_id: teamId });
    const sessions = body<{ list: { method: string; current: boolean }[] }>(
      await sendCall(t, api.staffSessions, {}, token!),
    ).data.list;
    expect(sessions).toMatchObject([{ method: 'oidc', current: true }]);
    const id = (me as unknown as { id: number }).id;
    const [login] = await auditEntriesOf(t, 'staff.login', id);
    expect(JSON.parse(login!.after!)).toEqual({ method: 'oidc' });
  });

  it('refuses a tampered ID token: its signature no longer holds', async () => {
    user(['hr-campus']);
    idp.tamper = (idToken) => {
      const [h, , s] = idToken.split('.');
      const claims = { ...jwtClaims(idToken), sub: 'someone-else' };
      return `${h}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${s}`;
    };
    expect(await refused()).toBe('sso_signature_invalid');
  });

  it('refuses an ID token with another nonce', async () => {
    user(['hr-campus']);
    resign((c) => ({ ...c, nonce: 'a-nonce-of-another-request' }));
    expect(await refused()).toBe('sso_nonce_mismatch');
  });

  it('refuses an ID token issued for another application', async () => {
    user(['hr-campus']);
    resign((c) => ({ ...c, aud: 'another-client' }));
    expect(await refused()).toBe('sso_audience_mismatch');
  });

  it('refuses an expired ID token, and one issued in the future (clock skew)', async () => {
    const now = Math.floor(Date.now() / 1000);
    user(['hr-campus']);
    resign((c) => ({ ...c, iat: now - 7_200, exp: now - 3_600 }));
    expect(await refused()).toBe('sso_token_expired');
    user(['hr-campus']);
    resign((c) => ({ ...c, iat: now + 3_600, exp: now + 7_200 }));
    expect(await refused()).toBe('sso_clock_skew');
  });

  it("refuses an answer without this browser's state", async () => {
    user(['hr-campus']);
    const { location, token } = await signIn({ state: 'another-browsers-state' });
    expect(token).toBeUndefined();
    expect(location).toBe('/admin/login?sso_error=sso_state_invalid');
  });

  it('refuses groups no mapping names, and a removed mapping at the next sign-in', async () => {
    user(['someone-elses-group']);
    expect(await refused()).toBe('sso_no_mapped_team');
    const phone = user(['hr-campus']);
    expect((await signIn()).token).toBeTruthy();
    const removed = await sendCall(t, api.ssoGroupDelete, { body: { id: mapping.id } }, admin);
    expect(removed.statusCode).toBe(200);
    user(['hr-campus'], phone);
    expect(await refused()).toBe('sso_no_mapped_team');
  });

  it('requiring single sign-on refuses every password but the break-glass admins, and single sign-on still works', async () => {
    const password = 'password-1';
    const phone = freshPhone('133');
    await sendCall(
      t,
      api.staffCreate,
      { body: { phone, area_code: '86', name: 'Password author', role: 'author', password } },
      admin,
    );
    const me = body<{ id: number }>(await sendCall(t, api.staffMe, {}, admin)).data;
    const none = await sendCall(t, api.ssoSettingsUpdate, { body: { required: true, break_glass: [] } }, admin);
    expect(body(none).code).toBe('validation_error');
    const set = await sendCall(t, api.ssoSettingsUpdate, { body: { required: true, break_glass: [me.id] } }, admin);
    expect(body(set).data).toMatchObject({ required: true, break_glass: [me.id] });
    const [entry] = await auditEntriesOf(t, 'sso.settings');
    expect(JSON.parse(entry!.after!)).toEqual({ required: true, break_glass: [me.id] });
    expect(body(await sendCall(t, api.ssoOptions, {}, '')).data).toMatchObject({ required: true });

    const login = (p: string, pw: string) =>
      t.app.inject({ method: 'POST', url: '/api/admin/auth/login', payload: { phone: p, password: pw } });
    const refusedLogin = await login(phone, password);
    expect(refusedLogin.statusCode).toBe(403);
    expect(body(refusedLogin).code).toBe('sso_required');
    // A wrong password says only that.
    expect(body(await login(phone, 'wrong-password')).code).toBe('invalid_credentials');
    expect((await login(TEST_ADMIN.phone, TEST_ADMIN.password)).statusCode).toBe(200);

    const mapped = await sendCall(
      t,
      api.ssoGroupCreate,
      { body: { group: 'hr-required', team_id: teamId, role: 'author' } },
      admin,
    );
    expect(mapped.statusCode).toBe(200);
    user(['hr-required']);
    expect((await signIn()).token).toBeTruthy();
    await sendCall(t, api.ssoSettingsUpdate, { body: { required: false, break_glass: [] } }, admin);
    expect((await login(phone, password)).statusCode).toBe(200);
  });
});
