/**
 * Request ids: every request gets one (a well-formed X-Request-Id is kept, anything else replaced), answered in
 * the response header and written in every log line of the request, including those services write through
 * the app's logger; a job the request created stores it, and the job's log lines carry it too.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/app.js';
import { testedDialects } from '../test/db.js';
import { giftImport } from '../test/jobs.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The parsed log lines written so far. */
const lines = (t: TestApp) =>
  t.logs.flatMap((chunk) => chunk.split('\n').filter(Boolean)).map((l) => JSON.parse(l) as Record<string, unknown>);

describe.each(await testedDialects())('request ids on %s', (dialect) => {
  let t: TestApp;
  afterEach(async () => t.close());

  it('gives every request an id, answers it, and writes it in each of its log lines', async () => {
    t = await createTestApp(dialect, { env: { SMS_PROVIDER: 'console', LOG_LEVEL: 'info' } });
    const res = await t.app.inject('/api/user/send-msg?phone=13800138000');
    expect(res.statusCode, res.body).toBe(200);
    const id = String(res.headers['x-request-id']);
    expect(id).toMatch(UUID);
    const mine = lines(t).filter((l) => l.reqId === id);
    const messages = mine.map((l) => l.msg);
    expect(messages).toContain('incoming request');
    expect(messages).toContain('request completed');
    // The SMS sender logs through the app's root logger, not the request's: the id is there too, once.
    const code = lines(t).find((l) => String(l.msg).startsWith('SMS code for'));
    expect(code?.reqId).toBe(id);
    expect(t.logs.join('').match(new RegExp(`"reqId":"${id}"`, 'g'))?.length).toBe(mine.length);

    // Another request, another id.
    const next = await t.app.inject('/healthz');
    expect(next.headers['x-request-id']).toMatch(UUID);
    expect(next.headers['x-request-id']).not.toBe(id);
  });

  it("keeps a caller's well-formed X-Request-Id and replaces a malformed one", async () => {
    t = await createTestApp(dialect);
    const given = 'lb-7f3a9c2e:0001';
    const kept = await t.app.inject({ url: '/api/site/config', headers: { 'x-request-id': given } });
    expect(kept.headers['x-request-id']).toBe(given);
    expect(lines(t).some((l) => l.reqId === given && l.msg === 'request completed')).toBe(true);
    for (const bad of ['short', 'has space in it', '"quoted-id-1234"', 'x'.repeat(129), 'new\u2028line-id-12']) {
      const res = await t.app.inject({ url: '/api/site/config', headers: { 'x-request-id': bad } });
      expect(res.headers['x-request-id'], bad).toMatch(UUID);
    }
  });

  it('carries the id into the job the request created and its log lines', async () => {
    t = await createTestApp(dialect);
    const admin = await t.loginStaff('admin');
    const requestId = 'import-request-0042';
    const jobId = await giftImport(t, admin, '::Q1:: 2 + 2? {=4 ~5}\n', { 'x-request-id': requestId });

    const row = await t.db.handle.db.selectFrom('job').select('request_id').where('id', '=', jobId).executeTakeFirst();
    expect(row?.request_id).toBe(requestId);
    const jobLines = lines(t).filter((l) => l.job === jobId);
    expect(jobLines.map((l) => l.msg)).toEqual(['job started', 'job ended']);
    for (const l of jobLines) expect(l.reqId).toBe(requestId);
    // The follow-up calls (job detail) are requests of their own.
    expect(lines(t).filter((l) => l.reqId === requestId && l.msg === 'incoming request')).toHaveLength(1);
    expect(t.logs.join('')).not.toContain(admin);
  });
});
