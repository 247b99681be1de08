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

  it('redacts after decoding, whatever the spelling of the name or the value', () => {
    const T = 'S3CRET';
    for (const url of [
      `/a?a%75th=${T}`,
      `/a?%61%75%74%68=${T}`,
      `/a?%41uTh=${T}`,
      `/a?a%2575th=${T}`,
      `/a?x=1&auth=${T}&auth=${T}2`,
      `/a?auth[]=${T}`,
      `/a?auth%5B%5D=${T}`,
      `/a?+auth=${T}`,
      `/a?pass%77ord=${T}`,
      `/a?auth=${T.replace(/./g, (c) => `%${c.charCodeAt(0).toString(16)}`)}`,
      `/a?auth=${T}+${T}`,
      `/a?x-amz-signature=${T}&X-Amz-Credential=${T}`,
      `/a?referer=${encodeURIComponent(`https://site/phone?auth=${T}&x=1`)}`,
      `/a?referer=${encodeURIComponent(encodeURIComponent(`https://site/phone?a%75th=${T}`))}`,
      `/a?next=${encodeURIComponent(`token=${T}`)}#auth=frag`,
    ]) {
      const redacted = redactUrl(url);
      expect(redacted, url).not.toContain(T);
      expect(redacted, url).not.toContain(T.replace(/./g, (c) => `%${c.charCodeAt(0).toString(16)}`));
      expect(redacted, url).toContain('[redacted]');
    }
    // What is not a secret stays readable; a broken escape does not throw.
    expect(redactUrl('/a?q=50%25+off&authority=x')).toBe('/a?q=50%25+off&authority=x');
    expect(redactUrl('/a?%E0%A4%A=1&auth=x')).toBe('/a?%E0%A4%A=1&auth=[redacted]');
  });

  it('a percent-encoded `auth` logs in, and its token still stays out of the log', async () => {
    const token = await t.loginCandidate('13800138000');
    const spelled = await t.app.inject(`/api/user/get-info?a%75th=${token}`);
    expect(spelled.statusCode, spelled.body).toBe(200);
    await t.app.inject(`/api/user/get-info?%61%75%74%68=${encodeURIComponent(token)}&auth=x`);
    const page = `https://exam.example.com/phone?auth=${token}`;
    await t.app.inject(`/api/user/get-info?auth=${token}&referer=${encodeURIComponent(page)}`);
    const all = t.logs.join('');
    expect(all).toContain('/api/user/get-info?a%75th=[redacted]');
    expect(all).not.toContain(token);
  });
});
