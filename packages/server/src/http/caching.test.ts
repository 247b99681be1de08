/**
 * `Cache-Control: no-store` over the whole route list: every call that needs a token answers with it, refused or
 * not, and answers made for a caller (a staff list, a candidate's exams, another system's results, a download)
 * carry it; public calls and the web app's files keep their own caching.
 */
import fs from 'node:fs';
import { api, type ApiTokenCreateData, type CallDef } from '@examhall/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { body, createTestApp, type TestApp } from '../test/app.js';
import { sendCall } from '../test/callWorld.js';
import { testedDialects } from '../test/db.js';
import { miniWebDist } from '../test/webDist.js';
import { answersArePersonal } from './caching.js';

describe.each(await testedDialects())('caching of answers on %s', (dialect) => {
  const dist = miniWebDist();
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(dialect, { env: { WEB_DIST: dist } });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('every call with a token, and every sign-in step, answers no-store, even when it refuses the caller; other public calls do not', async () => {
    const calls = t.routes.map((r) => r.call).filter((c): c is CallDef => c !== undefined);
    expect(calls.filter((c) => c.auth === 'public').length).toBeGreaterThan(0);
    for (const auth of ['candidate', 'staff', 'phone', 'integration'] as const) {
      expect(
        calls.some((c) => c.auth === auth),
        auth,
      ).toBe(true);
    }
    for (const c of calls) {
      const res = await t.app.inject({ method: c.method, url: `/api${c.path}` });
      const what = `${c.method} ${c.path} (${c.auth}): ${res.statusCode}`;
      if (answersArePersonal(c)) {
        // Without a token a call that needs one refuses; a sign-in step sends the browser on, or back to the login.
        if (c.auth !== 'public') expect(res.statusCode, what).toBeGreaterThanOrEqual(400);
        expect(res.headers['cache-control'], what).toBe('no-store');
      } else {
        expect(res.headers['cache-control'] ?? '', what).not.toContain('no-store');
      }
    }
  });

  it("answers made for a caller carry it: staff, a candidate's, another system's, a download", async () => {
    const admin = await t.loginStaff('admin');
    const { examId } = await t.seed('13800138000');
    const candidate = await t.loginCandidate('13800138000');
    const made = await sendCall(t, api.apiTokenCreate, { body: { name: 'ATS' } }, admin);
    const apiToken = body<ApiTokenCreateData>(made).data.token;

    const answers = [
      await sendCall(t, api.jobList, {}, admin),
      await sendCall(t, api.examCandidatesExport, { query: { exam_id: examId, format: 'csv' } }, admin),
      await t.app.inject({ method: 'GET', url: `/api${api.examIndex.path}?auth=${candidate}` }),
      await t.app.inject({
        method: 'GET',
        url: `/api${api.resultList.path}`,
        headers: { authorization: `Bearer ${apiToken}` },
      }),
    ];
    for (const res of answers) {
      expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
    }
  });

  it('public calls, pages and built files keep their own caching', async () => {
    const site = await t.app.inject({ method: 'GET', url: `/api${api.siteConfig.path}` });
    expect(site.statusCode).toBe(200);
    expect(site.headers['cache-control']).toBeUndefined();
    const asset = await t.app.inject({ method: 'GET', url: '/assets/a.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    const page = await t.app.inject({ method: 'GET', url: '/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control'] ?? '').not.toContain('no-store');
  });
});
