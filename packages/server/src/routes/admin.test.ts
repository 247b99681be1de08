import { api, roleHas, STAFF_ROLES, type CallDef, type StaffRole } from '@examhall/contract';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { body, createTestApp, type TestApp } from '../test/app.js';
import { testedDialects } from '../test/db.js';

const staffCalls = Object.entries(api).filter(([, c]) => (c as CallDef).auth === 'staff') as [string, CallDef][];

/** A body the call's schema accepts, so that only the permission decides the answer. */
const validBodies: Partial<Record<keyof typeof api, unknown>> = {
  staffCreate: { phone: '13600000000', area_code: '86', name: 'New', role: 'grader', password: 'password-1' },
};

describe.each(await testedDialects())('staff routes on %s', (dialect) => {
  let t: TestApp;
  const tokens = {} as Record<StaffRole, string>;
  let candidateToken = '';

  beforeAll(async () => {
    t = await createTestApp(dialect, { env: { ADMIN_PHONE: '13900000000', ADMIN_PASSWORD: 'admin-password' } });
    await t.services.staff.ensureAdmin('13900000000', 'admin-password');
    const admin = await t.app.inject({
      method: 'POST',
      url: '/api/admin/auth/login',
      payload: { phone: '13900000000', password: 'admin-password' },
    });
    tokens.admin = body<{ token: string }>(admin).data.token;
    for (const [i, role] of STAFF_ROLES.entries()) {
      if (role === 'admin') continue;
      const phone = `1370000000${i}`;
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/admin/staff',
        headers: { authorization: `Bearer ${tokens.admin}` },
        payload: { phone, area_code: '86', name: role, role, password: 'password-1' },
      });
      expect(created.statusCode).toBe(200);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/admin/auth/login',
        payload: { phone, password: 'password-1' },
      });
      tokens[role] = body<{ token: string }>(res).data.token;
    }
    candidateToken = await t.loginCandidate('13800138000');
  });
  afterAll(async () => t.close());

  it('every /admin route is a staff call of the catalogue, and every staff call but the self ones names a permission', () => {
    const adminRoutes = t.routes.filter((r) => r.url.startsWith(`${t.config.apiPrefix}/admin/`));
    // Public ones: the password login and the single sign-on steps a browser takes before it has a session.
    const signIn = Object.values(api).filter(
      (c: CallDef) => c.auth === 'public' && c.path.startsWith('/admin/') && c.live !== false,
    ) as CallDef[];
    expect(adminRoutes.length).toBe(staffCalls.length + signIn.length);
    for (const r of adminRoutes) {
      const ok =
        (r.call !== undefined && signIn.includes(r.call)) ||
        (r.call?.auth === 'staff' && staffCalls.some(([, c]) => c === r.call));
      expect(ok, `${r.method} ${r.url} is not a staff call of the catalogue`).toBe(true);
    }
    for (const [name, c] of staffCalls) {
      // Calls on the caller's own account are every role's: they need a login, not a permission.
      const own = [
        ...['staffMe', 'staffLogout', 'staffSessions', 'staffSessionEnd'],
        ...['staffTotpEnrol', 'staffTotpConfirm', 'staffTotpDisable'],
      ];
      if (own.includes(name)) continue;
      expect(c.permission, `${name} names no permission`).toBeDefined();
    }
  });

  it.each(staffCalls)('%s refuses no token and a candidate token, wherever it is put', async (_name, c) => {
    const url = `/api/${c.path.slice(1)}`;
    const attempts: Partial<InjectOptions>[] = [
      {},
      { headers: { authorization: `Bearer ${candidateToken}` } },
      { cookies: { staff_auth: candidateToken } },
      { cookies: { auth: candidateToken } },
      { query: { auth: candidateToken } },
    ];
    for (const extra of attempts) {
      const res = await t.app.inject({ method: c.method, url, payload: c.method === 'GET' ? undefined : {}, ...extra });
      expect(res.statusCode).toBe(401);
      expect(body(res).code).toBe('not_logged_in');
    }
  });

  for (const role of STAFF_ROLES) {
    it.each(staffCalls)(`%s answers the ${role} role by its permission`, async (name, c) => {
      if (name === 'staffLogout') return; // would revoke the shared token; covered below
      const res = await t.app.inject({
        method: c.method,
        url: `/api${c.path}`,
        headers: { authorization: `Bearer ${tokens[role]}` },
        payload: c.method === 'GET' ? undefined : (validBodies[name as keyof typeof api] ?? {}),
      });
      const allowed = !c.permission || roleHas(role, c.permission);
      if (allowed) {
        // Permission is settled before the input is read: an allowed role gets past it, to an answer or to
        // the input's own error (a missing query, an unknown id, a stream asked for without Accept).
        expect(res.statusCode).toBeLessThan(500);
        expect([401, 403]).not.toContain(res.statusCode);
      } else {
        expect(res.statusCode).toBe(403);
        expect(body(res).code).toBe('forbidden');
      }
    });
  }

  it('refuses a wrong password, locks the phone after 5 failures, and logs out', async () => {
    await t.services.staff.ensureAdmin('13900000001', 'right-password');
    const tryLogin = (password: string) =>
      t.app.inject({ method: 'POST', url: '/api/admin/auth/login', payload: { phone: '13900000001', password } });
    for (let i = 0; i < 5; i++) expect(body(await tryLogin('wrong-password')).code).toBe('invalid_credentials');
    const locked = await tryLogin('right-password');
    expect(locked.statusCode).toBe(429);
    expect(body(locked).code).toBe('account_locked');
    t.advance(15 * 60_000);
    const ok = await tryLogin('right-password');
    expect(ok.statusCode).toBe(200);
    const token = body<{ token: string }>(ok).data.token;
    expect(ok.cookies.find((k) => k.name === 'staff_auth')?.httpOnly).toBe(true);
    expect((await t.app.inject({ url: '/api/admin/auth/me', cookies: { staff_auth: token } })).statusCode).toBe(200);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/admin/auth/logout', cookies: { staff_auth: token } }))
        .statusCode,
    ).toBe(200);
    expect((await t.app.inject({ url: '/api/admin/auth/me', cookies: { staff_auth: token } })).statusCode).toBe(401);
  });

  it('refuses a staff token on candidate calls', async () => {
    const res = await t.app.inject(`/api/user/get-info?auth=${tokens.admin}`);
    expect(res.statusCode).toBe(401);
  });

  it('stores staff passwords as argon2 hashes and rejects a duplicate phone', async () => {
    const rows = await t.db.handle.db.selectFrom('staff').select('password_hash').execute();
    for (const r of rows) expect(r.password_hash).toMatch(/^\$argon2id\$/);
    const dup = await t.app.inject({
      method: 'POST',
      url: '/api/admin/staff',
      headers: { authorization: `Bearer ${tokens.admin}` },
      payload: { phone: '13700000001', area_code: '86', name: 'Dup', role: 'grader', password: 'password-1' },
    });
    expect(dup.statusCode).toBe(409);
    expect(body(dup).code).toBe('conflict');
  });
});
