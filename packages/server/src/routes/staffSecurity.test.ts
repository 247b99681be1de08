/** Staff security under concurrency, over real HTTP: duplicate creations, the password lock, login limits. */
import { api, STAFF_LOGIN_RULES } from '@examhall/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { body, createTestApp, type TestApp } from '../test/app.js';
import { freshPhone } from '../test/callWorld.js';
import { countPasswordChecks } from '../test/staffTotp.js';
import { testedDialects } from '../test/db.js';
import { adminApp } from '../test/examScenario.js';

const PASSWORD = 'password-1';

describe.each(await testedDialects())('staff security on %s', (dialect) => {
  const s = adminApp(dialect, { seed: false });
  let base = '';

  beforeAll(async () => {
    base = (await s.t.app.listen({ host: '127.0.0.1', port: 0 })) + '/api';
  });

  const post = async (path: string, payload: unknown, token?: string) => {
    const res = await fetch(base + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(payload),
    });
    return { status: res.status, body: (await res.json()) as { status: string; code?: string; data: unknown } };
  };

  it('five simultaneous creations of one account: one succeeds, four answer 409 conflict', async () => {
    const input = { phone: freshPhone('132'), area_code: '86', name: 'Twin', role: 'grader', password: PASSWORD };
    const five = await Promise.all(Array.from({ length: 5 }, () => post(api.staffCreate.path, input, s.admin)));
    expect(five.map((r) => r.status).sort(), JSON.stringify(five)).toEqual([200, 409, 409, 409, 409]);
    for (const r of five.filter((r) => r.status === 409))
      expect(r.body).toMatchObject({ status: 'error', code: 'conflict' });
  });

  const newStaff = async (role = 'grader') => {
    const phone = freshPhone('133');
    const res = await post(
      api.staffCreate.path,
      { phone, area_code: '86', name: 'Locked', role, password: PASSWORD },
      s.admin,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return phone;
  };
  const login = (phone: string, password: string) => post(api.staffLogin.path, { phone, password });
  /** Counts the argon2 verifications the login makes (the real ones, counted on the way). */
  const countChecks = () => countPasswordChecks(s.t);

  it('40 wrong passwords at once: only the allowed number is checked, and a right one in a later burst does not log in', async () => {
    const phone = await newStaff();
    const checks = countChecks();
    try {
      const burst = await Promise.all(Array.from({ length: 40 }, (_, i) => login(phone, `wrong-${i}`)));
      expect(checks.n).toBe(STAFF_LOGIN_RULES.maxFailures);
      const codes = burst.map((r) => `${r.status} ${r.body.code}`);
      expect(codes.filter((c) => c === '401 invalid_credentials')).toHaveLength(STAFF_LOGIN_RULES.maxFailures);
      expect(codes.filter((c) => c === '429 account_locked')).toHaveLength(40 - STAFF_LOGIN_RULES.maxFailures);

      // Locked: the right password hidden among wrong ones is not even checked.
      checks.n = 0;
      const second = await Promise.all(
        Array.from({ length: 11 }, (_, i) => login(phone, i === 5 ? PASSWORD : `wrong-again-${i}`)),
      );
      expect(second.map((r) => r.body.code)).toEqual(Array(11).fill('account_locked'));
      expect(checks.n).toBe(0);
    } finally {
      checks.restore();
    }
    s.t.advance(STAFF_LOGIN_RULES.windowMs);
    expect((await login(phone, PASSWORD)).status).toBe(200);
  });

  it('an unknown phone is locked the same way, so the lock does not tell which phones have accounts', async () => {
    const phone = freshPhone('134');
    const burst = await Promise.all(Array.from({ length: 12 }, () => login(phone, 'whatever')));
    expect(burst.filter((r) => r.body.code === 'invalid_credentials')).toHaveLength(STAFF_LOGIN_RULES.maxFailures);
    expect(burst.filter((r) => r.body.code === 'account_locked')).toHaveLength(12 - STAFF_LOGIN_RULES.maxFailures);
  });

  it('a success clears the count: the tries of the next window start from zero', async () => {
    const phone = await newStaff();
    for (let i = 0; i < STAFF_LOGIN_RULES.maxFailures - 1; i++) expect((await login(phone, 'nope')).status).toBe(401);
    expect((await login(phone, PASSWORD)).status).toBe(200);
    for (let i = 0; i < STAFF_LOGIN_RULES.maxFailures - 1; i++) expect((await login(phone, 'nope')).status).toBe(401);
    expect((await login(phone, PASSWORD)).status).toBe(200);
  });
});

describe.each(await testedDialects())('staff login limit per address on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { env: { STAFF_LOGIN_IP_LIMIT: '3' } });
    await t.services.staff.ensureAdmin('13900000009', PASSWORD);
  });
  afterAll(async () => t.close());

  const login = (phone: string, password: string, ip: string) =>
    t.app.inject({ method: 'POST', url: '/api/admin/auth/login', payload: { phone, password }, remoteAddress: ip });

  it('refuses an address past its limit with 429 rate_limited, whichever phones it tries; other addresses go on', async () => {
    for (const phone of ['13900000101', '13900000102', '13900000103']) {
      expect(body(await login(phone, 'guess', '10.9.0.1')).code).toBe('invalid_credentials');
    }
    const over = await login('13900000009', PASSWORD, '10.9.0.1');
    expect([over.statusCode, body(over)]).toEqual([
      429,
      { status: 'error', code: 'rate_limited', msg: expect.any(String), data: null },
    ]);
    expect((await login('13900000009', PASSWORD, '10.9.0.2')).statusCode).toBe(200);
    t.advance(STAFF_LOGIN_RULES.windowMs);
    expect((await login('13900000009', PASSWORD, '10.9.0.1')).statusCode).toBe(200);
  });
});
