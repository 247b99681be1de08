import { randomUUID } from 'node:crypto';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { body, createTestApp, TEST_ADMIN, type TestApp } from '../test/app.js';
import { testedDialects } from '../test/db.js';
import { multipart } from '../test/multipart.js';

const SITE = 'https://exam.example.com';
const SIBLING = 'https://evil.example.com';

describe.each(await testedDialects())('cross-site requests on %s', (dialect) => {
  let t: TestApp;
  let staff = '';
  let candidate = '';
  let examId = 0;
  let phoneSeq = 0;
  beforeAll(async () => {
    t = await createTestApp(dialect, { env: { PUBLIC_URL: SITE } });
    examId = (await t.seed('13800138000')).examId;
    candidate = await t.loginCandidate('13800138000');
    staff = await t.loginStaff('admin');
  });
  afterAll(async () => t.close());

  const newAdmin = () => {
    phoneSeq += 1;
    return {
      phone: `1370000${String(phoneSeq).padStart(4, '0')}`,
      area_code: '86',
      name: 'Mallory',
      role: 'admin',
      password: 'password-1',
    };
  };
  const staffCount = async () =>
    Number(
      (
        await t.db.handle.db
          .selectFrom('staff')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  /** Creates an admin with the staff cookie, as a page would. */
  const createAdmin = (headers: Record<string, string>, payload: string | object = newAdmin()) =>
    t.app.inject({
      method: 'POST',
      url: '/api/admin/staff',
      cookies: { staff_auth: staff },
      headers,
      payload: payload as InjectOptions['payload'],
    });

  it('refuses a write with the staff cookie from another origin, or from no stated origin', async () => {
    const before = await staffCount();
    for (const headers of <Record<string, string>[]>[
      { origin: SIBLING },
      { origin: 'null' },
      { origin: 'https://exam.example.com.evil.example' },
      { origin: 'http://exam.example.com' },
      { referer: `${SIBLING}/page` },
      { referer: '' },
    ]) {
      const res = await createAdmin(headers);
      expect(res.statusCode, `${JSON.stringify(headers)}: ${res.body}`).toBe(403);
      expect(body(res)).toMatchObject({ status: 'error', code: 'cross_origin', data: null });
    }
    expect(await staffCount()).toBe(before);
  });

  it('refuses a form-encoded staff write, even from the site itself or with the bearer token', async () => {
    const before = await staffCount();
    const form = new URLSearchParams(newAdmin()).toString();
    const type = { 'content-type': 'application/x-www-form-urlencoded' };
    const viaCookie = await createAdmin({ origin: SITE, ...type }, form);
    expect(viaCookie.statusCode, viaCookie.body).toBe(415);
    expect(body(viaCookie).code).toBe('unsupported_media_type');
    const viaBearer = await t.app.inject({
      method: 'POST',
      url: '/api/admin/staff',
      headers: { authorization: `Bearer ${staff}`, ...type },
      payload: form,
    });
    expect(viaBearer.statusCode, viaBearer.body).toBe(415);
    for (const contentType of ['text/plain', 'multipart/form-data; boundary=x', 'application/jsonx']) {
      const res = await createAdmin({ origin: SITE, 'content-type': contentType }, JSON.stringify(newAdmin()));
      expect(res.statusCode, `${contentType}: ${res.body}`).toBe(415);
      expect(body(res).code).toBe('unsupported_media_type');
    }
    expect(await staffCount()).toBe(before);
  });

  it('accepts a same-origin JSON write with the cookie (Origin, or Referer when Origin is absent)', async () => {
    const byOrigin = await createAdmin({ origin: SITE });
    expect(byOrigin.statusCode, byOrigin.body).toBe(200);
    const byReferer = await createAdmin({ referer: `${SITE}/admin/staff` });
    expect(byReferer.statusCode, byReferer.body).toBe(200);
    const withCharset = await createAdmin(
      { origin: SITE, 'content-type': 'application/json; charset=utf-8' },
      JSON.stringify(newAdmin()),
    );
    expect(withCharset.statusCode, withCharset.body).toBe(200);
  });

  it('does not ask a bearer token where the request comes from: no browser attaches it by itself', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/staff',
      headers: { authorization: `Bearer ${staff}`, origin: SIBLING },
      payload: newAdmin(),
    });
    expect(res.statusCode, res.body).toBe(200);
  });

  it("checks a candidate's cookie the same way; the `auth` parameter is not sent by the browser by itself", async () => {
    const feedback = () => ({ exam_id: examId, rating: 5, content: 'ok', client_id: randomUUID() });
    const byCookieFrom = (origin: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/exam/feedback',
        cookies: { auth: candidate },
        headers: { origin },
        payload: feedback(),
      });
    const byCookie = await byCookieFrom(SIBLING);
    expect(byCookie.statusCode, byCookie.body).toBe(403);
    expect(body(byCookie).code).toBe('cross_origin');
    const sameSite = await byCookieFrom(SITE);
    expect(sameSite.statusCode, sameSite.body).toBe(200);
    const byParam = await t.app.inject({
      method: 'POST',
      url: `/api/exam/feedback?auth=${candidate}`,
      headers: { origin: SIBLING },
      payload: feedback(),
    });
    expect(byParam.statusCode, byParam.body).toBe(200);
  });

  it('refuses a login, staff or candidate, and a login code asked for from another origin; none named passes', async () => {
    const foreign: Record<string, string>[] = [
      { origin: SIBLING },
      { origin: 'null' },
      { origin: 'http://exam.example.com' },
      { referer: `${SIBLING}/login` },
      { referer: 'not an address' },
      // Origin decides when both are there.
      { origin: SIBLING, referer: `${SITE}/admin` },
    ];
    const same: Record<string, string>[] = [{ origin: SITE }, { referer: `${SITE}/admin/login` }, {}];
    const staffLogin = (headers: Record<string, string>) =>
      t.app.inject({ method: 'POST', url: '/api/admin/auth/login', headers, payload: TEST_ADMIN });
    for (const headers of foreign) {
      const res = await staffLogin(headers);
      expect(res.statusCode, `${JSON.stringify(headers)}: ${res.body}`).toBe(403);
      expect(body(res)).toMatchObject({ status: 'error', code: 'cross_origin', data: null });
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    for (const headers of same) {
      const res = await staffLogin(headers);
      expect(res.statusCode, `${JSON.stringify(headers)}: ${res.body}`).toBe(200);
      expect(String(res.headers['set-cookie'])).toContain('staff_auth=');
    }

    const sendCode = (phone: string, headers: Record<string, string>) =>
      t.app.inject({ method: 'GET', url: `/api/user/send-msg?phone=${phone}&area_code=86`, headers });
    const login = (phone: string, headers: Record<string, string>) =>
      t.app.inject({
        method: 'POST',
        url: '/api/user/login',
        headers,
        payload: { phone, area_code: '86', code: t.sms.lastCode(phone) },
      });
    for (const [i, headers] of foreign.entries()) {
      const phone = `1381234${String(i).padStart(4, '0')}`;
      const refused = await sendCode(phone, headers);
      expect([refused.statusCode, body(refused).code], `${JSON.stringify(headers)}: ${refused.body}`).toEqual([
        403,
        'cross_origin',
      ]);
      expect(t.sms.messages.filter((m) => m.phone === phone)).toEqual([]);
      // The code asked for properly, the login from another origin is refused all the same.
      expect((await sendCode(phone, { origin: SITE })).statusCode).toBe(200);
      const res = await login(phone, headers);
      expect([res.statusCode, body(res).code], `${JSON.stringify(headers)}: ${res.body}`).toEqual([
        403,
        'cross_origin',
      ]);
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    for (const [i, headers] of same.entries()) {
      const phone = `1381235${String(i).padStart(4, '0')}`;
      const sent = await sendCode(phone, headers);
      expect(sent.statusCode, `${JSON.stringify(headers)}: ${sent.body}`).toBe(200);
      const res = await login(phone, headers);
      expect(res.statusCode, `${JSON.stringify(headers)}: ${res.body}`).toBe(200);
      expect(String(res.headers['set-cookie'])).toContain('auth=');
    }
  });

  it('keeps the risk record forms and the multipart uploads working, and only in their format', async () => {
    const risk = (type: string, payload: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/monitor/record-risk?auth=${candidate}`,
        headers: { 'content-type': type },
        payload,
      });
    const fields = { exam_id: String(examId), risk: '0', trigger_time: String(t.now()), client_id: randomUUID() };
    const start = await t.app.inject({
      method: 'POST',
      url: `/api/monitor/start-exam?auth=${candidate}`,
      payload: { exam_id: examId, anid: 1, phase: 2 },
    });
    expect(start.statusCode, start.body).toBeLessThan(500);
    const asJson = await risk('application/json', JSON.stringify(fields));
    expect(asJson.statusCode, asJson.body).toBe(415);
    expect(body(asJson).code).toBe('unsupported_media_type');
    const asForm = await risk('application/x-www-form-urlencoded', new URLSearchParams(fields).toString());
    // Past the format check: what is left is the call's own business (the attempt may not have started).
    expect(body(asForm).code ?? 'ok').not.toBe('unsupported_media_type');

    const face = (headers: Record<string, string>, payload: string | Buffer) =>
      t.app.inject({ method: 'POST', url: `/api/tools/face_recognize?auth=${candidate}`, headers, payload });
    const json = await face({ 'content-type': 'application/json' }, JSON.stringify({ exam_id: examId }));
    expect(json.statusCode, json.body).toBe(415);
    const form = multipart(
      { exam_id: String(examId) },
      { field: 'face_img', name: 'a.jpg', type: 'image/jpeg', data: Buffer.from('x') },
    );
    const asMultipart = await face(form.headers, form.payload);
    expect(body(asMultipart).code ?? 'ok').not.toBe('unsupported_media_type');
  });
});
