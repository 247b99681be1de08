import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { body, createTestApp, type TestApp } from '../test/app.js';
import { redactUrl } from './tokens.js';

describe('tokens never reach a log line', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp('sqlite', { env: { LOG_LEVEL: 'trace' } });
  });
  afterEach(async () => t.close());

  it('redacts candidate and staff tokens wherever they travel, on success and on failure', async () => {
    const token = await t.loginCandidate('13800138000');
    await t.app.inject(`/api/user/get-info?auth=${token}&referer=x`);
    await t.app.inject({ url: '/api/user/get-info', cookies: { auth: token } });
    await t.app.inject(`/api/exam/index?page=oops&auth=${token}`);
    await t.app.inject(`/api/no/such/path?auth=${token}`);
    await t.services.staff.ensureAdmin('13900000000', 'admin-password');
    const staff = await t.app.inject({
      method: 'POST',
      url: '/api/admin/auth/login',
      payload: { phone: '13900000000', password: 'admin-password' },
    });
    const staffToken = body<{ token: string }>(staff).data.token;
    await t.app.inject({ url: '/api/admin/staff', headers: { authorization: `Bearer ${staffToken}` } });
    await t.app.inject({ url: '/api/admin/staff', cookies: { staff_auth: staffToken } });
    await t.app.inject({ method: 'POST', url: `/api/user/logout?auth=${token}` });

    const all = t.logs.join('');
    expect(t.logs.length).toBeGreaterThan(10);
    expect(all).toContain('/api/user/get-info?auth=[redacted]&referer=x');
    expect(all).not.toContain(token);
    expect(all).not.toContain(staffToken);
    expect(all).not.toContain('admin-password');
  });

  it('redacts every secret-bearing query parameter', () => {
    expect(redactUrl('/a?auth=abc&x=1&token=t&password=p&code=123456')).toBe(
      '/a?auth=[redacted]&x=1&token=[redacted]&password=[redacted]&code=[redacted]',
    );
    expect(redactUrl('/a?AUTH=abc#frag')).toBe('/a?AUTH=[redacted]#frag');
    expect(redactUrl('/a?author=me')).toBe('/a?author=me');
  });
});
