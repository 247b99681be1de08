import { AUTH_COOKIE_DAYS, SMS_RULES } from '@examhall/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { body, createTestApp, type TestApp } from '../test/app.js';
import { testedDialects } from '../test/db.js';

const PHONE = '13800138000';

describe.each(await testedDialects())('candidate login on %s', (dialect) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp(dialect, { env: { COOKIE_DOMAIN: 'examhall.test' } });
  });
  afterEach(async () => t.close());

  const send = (phone = PHONE, ip = '10.0.0.1') =>
    t.app.inject({ method: 'GET', url: `/api/user/send-msg?phone=${phone}&area_code=86`, remoteAddress: ip });
  const login = (code: string, phone = PHONE, ip = '10.0.0.1') =>
    t.app.inject({
      method: 'POST',
      url: '/api/user/login',
      payload: { phone, area_code: '86', code },
      remoteAddress: ip,
    });

  it('lists area codes with mainland China first', async () => {
    const res = await t.app.inject('/api/user/area-code-list');
    expect(res.statusCode).toBe(200);
    const data = body<{ list: { code: string }[] }>(res).data;
    expect(data.list[0]?.code).toBe('86');
  });

  it('sends a 6-digit code through the webhook, logs in, creates the candidate once and sets the 30-day cookie', async () => {
    const sent = await send();
    expect(sent.statusCode).toBe(200);
    expect(body(sent).data).toEqual({ resend_after: 60, expires_in: 300, delay: 0 });
    const code = t.sms.lastCode(PHONE);
    expect(code).toMatch(/^\d{6}$/);
    expect(t.sms.messages.at(-1)).toMatchObject({ phone: PHONE, area_code: '86', purpose: 'login' });

    const res = await login(code);
    expect(res.statusCode).toBe(200);
    const data = body<{ auth: string; user_id: number; phone: string }>(res).data;
    expect(data.phone).toBe(PHONE);
    const cookie = res.cookies.find((c) => c.name === 'auth');
    expect(cookie?.value).toBe(data.auth);
    expect(cookie?.maxAge).toBe(AUTH_COOKIE_DAYS * 86_400);
    expect(cookie?.domain).toBe('examhall.test');
    expect(cookie?.path).toBe('/');

    const info = await t.app.inject(`/api/user/get-info?auth=${data.auth}`);
    expect(info.statusCode).toBe(200);
    expect(body(info).data).toMatchObject({ id: data.user_id, user_id: data.user_id, phone: PHONE, info: 0 });

    // a second login finds the same candidate
    t.advance(SMS_RULES.resendIntervalMs);
    await send();
    const again = body<{ user_id: number }>(await login(t.sms.lastCode(PHONE))).data;
    expect(again.user_id).toBe(data.user_id);
  });

  it('accepts the token from the query parameter or the cookie, and refuses it after logout', async () => {
    const token = await t.loginCandidate(PHONE);
    expect((await t.app.inject(`/api/user/get-info?auth=${token}`)).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/user/get-info', cookies: { auth: token } })).statusCode).toBe(200);
    const out = await t.app.inject({ method: 'POST', url: `/api/user/logout?auth=${token}` });
    expect(out.statusCode).toBe(200);
    const after = await t.app.inject(`/api/user/get-info?auth=${token}`);
    expect(after.statusCode).toBe(401);
    expect(body(after)).toMatchObject({ status: 'error', code: 'not_logged_in', msg: 'not logged in' });
  });

  it('stores tokens and codes only as hashes', async () => {
    const token = await t.loginCandidate(PHONE);
    const tokens = await t.db.handle.db.selectFrom('auth_tokens').selectAll().execute();
    expect(tokens.some((r) => r.token_hash === token)).toBe(false);
    expect(tokens[0]?.token_hash).toMatch(/^[0-9a-f]{64}$/);
    const codes = await t.db.handle.db.selectFrom('sms_codes').selectAll().execute();
    expect(codes.some((r) => r.code_hash === t.sms.lastCode(PHONE))).toBe(false);
  });

  it('refuses an unknown or garbage token with 401', async () => {
    for (const url of [
      '/api/user/get-info',
      '/api/user/get-info?auth=nope',
      `/api/user/get-info?auth=${'x'.repeat(5000)}`,
    ]) {
      const res = await t.app.inject(url);
      expect(res.statusCode).toBe(401);
      expect(body(res).code).toBe('not_logged_in');
    }
  });

  it('voids a code after 5 wrong tries, even for the right code', async () => {
    await send();
    const code = t.sms.lastCode(PHONE);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 1; i < SMS_RULES.maxWrongTries; i++) {
      const res = await login(wrong);
      expect(res.statusCode).toBe(422);
      expect(body(res).code).toBe('sms_code_invalid');
      expect(body(res).msg).toContain(`${SMS_RULES.maxWrongTries - i} tries left`);
      expect(body(res).data).toEqual({ tries_left: SMS_RULES.maxWrongTries - i });
    }
    expect(body(await login(wrong)).code).toBe('sms_code_exhausted');
    const right = await login(code);
    expect(right.statusCode).toBe(422);
    expect(body(right).code).toBe('sms_code_exhausted');
  });

  it('expires a code after 5 minutes and uses a code only once', async () => {
    await send();
    const code = t.sms.lastCode(PHONE);
    t.advance(SMS_RULES.codeTtlMs);
    expect(body(await login(code)).code).toBe('sms_code_expired');

    await send();
    const fresh = t.sms.lastCode(PHONE);
    expect((await login(fresh)).statusCode).toBe(200);
    expect(body(await login(fresh)).code).toBe('sms_code_expired');
  });

  it('refuses a login without any code sent', async () => {
    const res = await login('123456');
    expect(res.statusCode).toBe(422);
    expect(body(res).code).toBe('sms_code_invalid');
  });

  it('keeps 60 s between sends to one phone', async () => {
    expect((await send()).statusCode).toBe(200);
    t.advance(SMS_RULES.resendIntervalMs - 1_000);
    const early = await send();
    expect(early.statusCode).toBe(429);
    expect(body(early).code).toBe('sms_too_frequent');
    expect(body(early).msg).toContain('1 s');
    t.advance(1_000);
    expect((await send()).statusCode).toBe(200);
    expect(t.sms.messages).toHaveLength(2);
  });

  it('caps sends per phone per day (UTC+8) and resets at midnight', async () => {
    // 02:00 UTC is 10:00 in UTC+8; the day ends 14 h later.
    for (let i = 0; i < SMS_RULES.dailyCapPerPhone; i++) {
      expect((await send(PHONE, `10.0.1.${i}`)).statusCode).toBe(200);
      t.advance(SMS_RULES.resendIntervalMs);
    }
    const capped = await send(PHONE, '10.0.2.1');
    expect(capped.statusCode).toBe(429);
    expect(body(capped).code).toBe('sms_daily_limit');
    t.advance(14 * 3_600_000);
    expect((await send(PHONE, '10.0.2.2')).statusCode).toBe(200);
  });

  it('limits sends per IP address across phones', async () => {
    for (let i = 0; i < SMS_RULES.ipLimit; i++) {
      const phone = `1390000${String(i).padStart(4, '0')}`;
      expect((await send(phone, '10.9.9.9')).statusCode).toBe(200);
    }
    const limited = await send('13911112222', '10.9.9.9');
    expect(limited.statusCode).toBe(429);
    expect(body(limited).code).toBe('rate_limited');
    expect((await send('13911112222', '10.9.9.8')).statusCode).toBe(200);
  });

  it('reports a failed delivery with 502 and does not count it against the interval', async () => {
    t.sms.failing = true;
    const res = await send();
    expect(res.statusCode).toBe(502);
    expect(body(res).code).toBe('sms_delivery_failed');
    t.sms.failing = false;
    expect((await send()).statusCode).toBe(200);
  });

  it('checks the phone against its area code', async () => {
    const res = await t.app.inject('/api/user/send-msg?phone=12345678901&area_code=86');
    expect(res.statusCode).toBe(422);
    expect(body(res)).toMatchObject({ code: 'validation_error', msg: 'phone: invalid phone number' });
    const hk = await t.app.inject('/api/user/send-msg?phone=51234567&area_code=852');
    expect(hk.statusCode).toBe(200);
    const unknown = await t.app.inject('/api/user/send-msg?phone=51234567&area_code=999');
    expect(body(unknown).msg).toBe('area_code: unknown area code');
  });
});
