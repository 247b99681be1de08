import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { formatServerTime, QUESTION_TYPES, SECTIONS } from '@examhall/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { seedDemo } from '../services/demoSeed.js';
import { body, createTestApp, type TestApp } from '../test/app.js';
import { testedDialects } from '../test/db.js';

describe.each(await testedDialects())('site, clock and exam list on %s', (dialect) => {
  let t: TestApp;
  afterEach(async () => t.close());

  it('tells the server time in UTC+8 whatever the machine zone', async () => {
    t = await createTestApp(dialect);
    const res = await t.app.inject('/api/monitor/time-table');
    // 2026-11-21 02:00 UTC
    expect(body(res).data).toEqual({ date: '2026-11-21 10:00:00', timestamp: t.now(), timezone: '+08:00' });
  });

  it('closes candidate calls with 503 during maintenance and keeps the notice, the clock and staff open', async () => {
    t = await createTestApp(dialect, {
      env: { MAINTENANCE_FROM: '2026-11-21 09:00', MAINTENANCE_TO: '2026-11-21 12:00', SUPPORT_PHONE: '400-123-4567' },
    });
    const site = body<{ maintenance: { active: boolean }; support_phone: string }>(
      await t.app.inject('/api/common/site-config'),
    ).data;
    expect(site.maintenance.active).toBe(true);
    expect(site.support_phone).toBe('400-123-4567');
    const send = await t.app.inject('/api/user/send-msg?phone=13800138000');
    expect(send.statusCode).toBe(503);
    expect(body(send).code).toBe('maintenance');
    expect((await t.app.inject('/api/monitor/time-table')).statusCode).toBe(200);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/admin/auth/login',
          payload: { phone: '13900000000', password: 'x' },
        })
      ).statusCode,
    ).toBe(401);
    t.advance(2 * 3_600_000); // 12:00 in UTC+8: the window is over
    expect((await t.app.inject('/api/user/send-msg?phone=13800138000')).statusCode).toBe(200);
    expect(
      body<{ maintenance: { active: boolean } }>(await t.app.inject('/api/common/site-config')).data.maintenance.active,
    ).toBe(false);
  });

  it('seeds the demo exam once, with three sections and all 11 question types', async () => {
    t = await createTestApp(dialect);
    const first = await seedDemo(t.db.handle.db, t.store, '13800138000', t.now());
    expect(first).not.toBeNull();
    expect(await seedDemo(t.db.handle.db, t.store, '13800138000', t.now())).toBeNull();
    const sections = await t.db.handle.db.selectFrom('exam_sections').select('kind').orderBy('order_num').execute();
    expect(sections.map((s) => s.kind)).toEqual([...SECTIONS]);
    const types = await t.db.handle.db.selectFrom('questions').select('type').execute();
    expect(new Set(types.map((q) => q.type))).toEqual(new Set(QUESTION_TYPES));
  });

  it('lists only the exams the candidate is invited to', async () => {
    t = await createTestApp(dialect);
    const seeded = await seedDemo(t.db.handle.db, t.store, '13800138000', t.now());
    const invited = await t.loginCandidate('13800138000');
    const stranger = await t.loginCandidate('13700137000');
    const list = body<{ list: { id: number; anid: number; state: string; time: number }[]; total: number }>(
      await t.app.inject(`/api/exam/index?auth=${invited}`),
    ).data;
    expect(list.total).toBe(1);
    expect(list.list[0]).toMatchObject({ id: seeded?.examId, anid: seeded?.anid, state: 'open', time: 60 });
    const none = body<{ list: unknown[]; total: number }>(await t.app.inject(`/api/exam/index?auth=${stranger}`)).data;
    expect(none).toEqual({ list: [], total: 0 });
    expect(formatServerTime(0)).toBe('1970-01-01 08:00:00');
  });
});

describe('the HTTP surface', () => {
  let t: TestApp;
  afterEach(async () => t.close());

  it('answers unknown API paths with the 404 envelope and serves the OpenAPI document at /docs', async () => {
    t = await createTestApp('sqlite');
    const res = await t.app.inject('/api/nope');
    expect(res.statusCode).toBe(404);
    expect(body(res)).toMatchObject({ status: 'error', code: 'not_found', data: null });
    const doc = await t.app.inject('/docs/json');
    expect(doc.statusCode).toBe(200);
    const openapi = doc.json() as { paths: Record<string, unknown>; servers: { url: string }[] };
    expect(openapi.servers[0]?.url).toBe('/api');
    expect(Object.keys(openapi.paths)).toEqual(
      expect.arrayContaining(['/user/login', '/user/send-msg', '/exam/index']),
    );
  });

  it('serves the web app for its pages, and for any other path with status 404 (the app shows its 404 page)', async () => {
    const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'examhall-web-'));
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
    try {
      t = await createTestApp('sqlite', { env: { WEB_DIST: dist } });
      for (const page of ['/', '/exams', '/exam/1/2/answer', '/admin/proctoring/3', '/phone?token=x']) {
        const res = await t.app.inject(page);
        expect(res.statusCode, page).toBe(200);
        expect(res.body, page).toContain('id="root"');
      }
      for (const other of ['/nope', '/exam/1', '/exams/1/2/3']) {
        const res = await t.app.inject(other);
        expect(res.statusCode, other).toBe(404);
        expect(res.headers['content-type'], other).toContain('text/html');
        expect(res.body, other).toContain('id="root"');
      }
      // A missing file and an unknown API path keep the error envelope.
      expect(body(await t.app.inject('/assets/missing.js'))).toMatchObject({ code: 'not_found' });
      expect(body(await t.app.inject('/api/nope'))).toMatchObject({ code: 'not_found' });
    } finally {
      fs.rmSync(dist, { recursive: true, force: true });
    }
  });

  it('serves the API at the root when API_PREFIX is empty', async () => {
    t = await createTestApp('sqlite', { env: { API_PREFIX: '' } });
    expect((await t.app.inject('/user/area-code-list')).statusCode).toBe(200);
    expect((await t.app.inject('/api/user/area-code-list')).statusCode).toBe(404);
  });

  it('answers malformed bodies with 422 and the field, never 500', async () => {
    t = await createTestApp('sqlite');
    const cases = [
      { payload: '{bad', headers: { 'content-type': 'application/json' } },
      { payload: '', headers: { 'content-type': 'application/json' } },
      { payload: '[]', headers: { 'content-type': 'application/json' } },
      { payload: { phone: '13800138000', code: 'abc' } },
    ];
    for (const c of cases) {
      const res = await t.app.inject({ method: 'POST', url: '/api/user/login', ...c });
      expect(res.statusCode).toBe(422);
      expect(body(res).code).toBe('validation_error');
      expect(body(res).msg).toMatch(/^\w[\w.]*: /);
    }
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/user/login',
      payload: { phone: '13800138000', code: 'abc' },
    });
    expect(body(res).msg).toBe('code: must be 6 digits');
    const xml = await t.app.inject({
      method: 'POST',
      url: '/api/user/login',
      payload: '<a/>',
      headers: { 'content-type': 'application/xml' },
    });
    expect(xml.statusCode).toBe(415);
    expect(body(xml).code).toBe('unsupported_media_type');
  });
});
