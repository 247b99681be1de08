/**
 * Results to other systems over HTTP on both dialects: an attempt's final score posted to a real local
 * receiver, signed (the receiver checks with its own HMAC, and a wrong secret does not verify); retries with
 * backoff until a 2xx, acknowledged once; a grader's last mark and a re-score that changes the score each a new
 * event; the delivery log and redelivery; API tokens made, used, revoked, limited to a team, never logged.
 */
import {
  api,
  type ApiTokenCreateData,
  type ApiTokenListData,
  type DeliveryListData,
  type ResultListData,
  type WebhookEndpointView,
  type WebhookListData,
  type WebhookTestData,
} from '@examhall/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { body } from '../test/app.js';
import { adminApp, questionOfKind, takeExam } from '../test/examScenario.js';
import { testedDialects } from '../test/db.js';
import { waitForJob } from '../test/jobs.js';
import { expectedSignature, startHookReceiver, type HookReceiver } from '../test/webhookReceiver.js';
import { API_TOKEN_REQUESTS_PER_MINUTE } from '../services/apiTokens.js';
import { verifyWebhook } from '../services/webhookPost.js';

const SECRET = 'whsec-0123456789abcdef';

describe.each(await testedDialects())('integrations on %s', (dialect) => {
  // The receiver listens on loopback: the operator lets webhooks reach private addresses.
  const s = adminApp(dialect, { each: true, app: { env: { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_LOG_DAYS: '14' } } });
  const { call, ok } = s;
  let receiver: HookReceiver;

  // Started after the app and closed before it (after-hooks run in reverse order).
  beforeEach(async () => {
    receiver = await startHookReceiver(SECRET);
  });
  afterEach(async () => receiver.close());

  /** The id of the published version's question of a kind. */
  const questionOf = (kind: string, exam = s.examId) => questionOfKind(s.t, exam, kind);

  /** A candidate who enters the exam, saves these answers and submits; answers the attempt id and phone. */
  const submitted = (answers: Record<number, unknown>, exam = s.examId) =>
    takeExam(s.t, exam, answers, { phonePrefix: '1372', profile: { name: 'Li Lei' } });

  const endpoint = (input: Record<string, unknown> = {}) =>
    ok<WebhookEndpointView>(api.webhookSave, { url: receiver.url, secret: SECRET, description: 'ATS', ...input });

  const deliveries = async (input: Record<string, unknown> = {}) =>
    (await ok<DeliveryListData>(api.webhookDeliveries, { order: 'asc', ...input })).list;

  it('posts the final score to a real receiver, signed: its own HMAC verifies, a wrong secret does not', async () => {
    await endpoint();
    const single = await questionOf('single');
    const { attemptId, phone } = await submitted({ [single]: { kind: 'choice', option: 'B' } });
    expect(await s.t.services.webhooks.deliver()).toBe(1);

    expect(receiver.received).toHaveLength(1);
    const [hook] = receiver.received;
    expect(hook!.verified).toBe(true);
    const payload = JSON.parse(hook!.body) as Record<string, unknown>;
    const attempt = (await s.t.services.attempts.byId(attemptId))!;
    expect(payload).toMatchObject({
      event: 'attempt.scored',
      attempt_id: attemptId,
      exam_id: s.examId,
      candidate: { name: 'Li Lei', area_code: '86', phone },
      score: attempt.score,
      max_score: attempt.max_score,
      scored_at: s.t.now(),
      finished_at: attempt.finished_at,
    });
    expect(payload).toHaveProperty('passed');
    expect(hook!.headers['x-examhall-event']).toBe(String(payload.id));
    expect(hook!.headers['content-type']).toBe('application/json');
    const timestamp = hook!.headers['x-examhall-timestamp'] as string;
    expect(Number(timestamp)).toBe(Math.floor(s.t.now() / 1000));
    const signature = hook!.headers['x-examhall-signature'] as string;
    expect(signature).toMatch(/^sha256=[0-9a-f]{64}$/);
    // The server's own check agrees with the receiver's; a wrong secret, another time or a changed body do not.
    expect(verifyWebhook(SECRET, signature, Number(timestamp), hook!.body)).toBe(true);
    expect(signature).not.toBe(expectedSignature('another-secret-0123', timestamp, hook!.body));
    expect(verifyWebhook('another-secret-0123', signature, Number(timestamp), hook!.body)).toBe(false);
    expect(verifyWebhook(SECRET, signature, Number(timestamp) + 1, hook!.body)).toBe(false);
    expect(verifyWebhook(SECRET, signature, Number(timestamp), hook!.body.replace('"score"', '"score" '))).toBe(false);

    // A receiver holding the wrong secret sees the signature fail.
    receiver.secret = 'not-the-endpoint-secret';
    await ok(api.webhookTest, { id: (await ok<WebhookListData>(api.webhookList)).list[0]!.id });
    expect(receiver.received[1]!.verified).toBe(false);
    expect(JSON.parse(receiver.received[1]!.body)).toMatchObject({ event: 'ping' });

    const [delivery] = await deliveries({ status: 'delivered', attempt_id: attemptId });
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 1, last_status: 200, delivered_at: s.t.now() });
    // The log says how long it keeps a settled delivery: the operator's days.
    expect((await ok<DeliveryListData>(api.webhookDeliveries, {})).kept_days).toBe(14);
    // Nothing more is due: a later run posts nothing.
    s.t.advance(3_600_000);
    expect(await s.t.services.webhooks.deliver()).toBe(0);
    expect(receiver.received).toHaveLength(2);
  });

  it('retries with backoff until a 2xx: failing twice then 200 is one acknowledged delivery of 3 tries', async () => {
    const made = await endpoint();
    receiver.answers.push(500, 503);
    const single = await questionOf('single');
    const { attemptId } = await submitted({ [single]: { kind: 'choice', option: 'A' } });

    expect(await s.t.services.webhooks.deliver()).toBe(0);
    let [d] = await deliveries();
    expect(d).toMatchObject({ status: 'pending', attempts: 1, last_status: 500, next_at: s.t.now() + 30_000 });
    expect(d!.last_error).toContain('500');
    // Not due yet: nothing is posted before the backoff has passed.
    s.t.advance(29_000);
    expect(await s.t.services.webhooks.deliver()).toBe(0);
    expect(receiver.received).toHaveLength(1);
    s.t.advance(1_000);
    expect(await s.t.services.webhooks.deliver()).toBe(0);
    [d] = await deliveries();
    expect(d).toMatchObject({ status: 'pending', attempts: 2, last_status: 503, next_at: s.t.now() + 60_000 });
    expect((await ok<WebhookListData>(api.webhookList)).list[0]).toMatchObject({ id: made.id, pending: 1 });
    s.t.advance(60_000);
    expect(await s.t.services.webhooks.deliver()).toBe(1);
    [d] = await deliveries();
    expect(d).toMatchObject({
      status: 'delivered',
      attempts: 3,
      last_status: 200,
      last_error: '',
      attempt_id: attemptId,
    });

    // Three tries of one event, the same body and id each time, and only the last acknowledged.
    expect(receiver.received.map((r) => r.answered)).toEqual([500, 503, 200]);
    expect(new Set(receiver.received.map((r) => r.body)).size).toBe(1);
    expect(new Set(receiver.received.map((r) => r.headers['x-examhall-event'])).size).toBe(1);
    expect(receiver.received.every((r) => r.verified)).toBe(true);
    s.t.advance(6 * 3_600_000);
    expect(await s.t.services.webhooks.deliver()).toBe(0);
    expect(receiver.received).toHaveLength(3);
    expect((await ok<WebhookListData>(api.webhookList)).list[0]).toMatchObject({ pending: 0, failed: 0 });
  });

  it("a grader's last mark makes the score final, and a re-score that changes it sends a new event", async () => {
    await endpoint();
    const single = await questionOf('single');
    const qa = await questionOf('qa');
    const qaAnswer = { kind: 'text', html: '<p>Atomicity.</p>', files: [] };
    const { attemptId } = await submitted({ [single]: { kind: 'choice', option: 'B' }, [qa]: qaAnswer });
    // An answer waits for a grader: the score is not final, nothing is sent.
    expect(await s.t.services.webhooks.deliver()).toBe(0);
    expect(await deliveries()).toEqual([]);

    await ok(api.gradingMark, { attempt_id: attemptId, question_id: qa, criteria: [2.5, 2.5, 0, 0] });
    expect(await s.t.services.webhooks.deliver()).toBe(1);
    const first = JSON.parse(receiver.received[0]!.body) as { id: number; score: number };
    const scored = (await s.t.services.attempts.byId(attemptId))!.score!;
    expect(first.score).toBe(scored);

    // A key correction that leaves this attempt's score alone sends nothing new.
    const { job_id: same } = await ok<{ job_id: number }>(api.gradingKey, {
      exam_id: s.examId,
      question_id: qa,
      key: { rubric: 'ACID.' },
    });
    await waitForJob(s.t, s.admin, same);
    expect(await s.t.services.webhooks.deliver()).toBe(0);

    // The single-choice key corrected away from the candidate's option: a new score, a new event.
    const { job_id } = await ok<{ job_id: number }>(api.gradingKey, {
      exam_id: s.examId,
      question_id: single,
      key: { option: 'A' },
    });
    await waitForJob(s.t, s.admin, job_id);
    const rescored = (await s.t.services.attempts.byId(attemptId))!.score!;
    expect(rescored).not.toBe(scored);
    s.t.advance(1_000);
    expect(await s.t.services.webhooks.deliver()).toBe(1);
    const second = JSON.parse(receiver.received[1]!.body) as { id: number; score: number; scored_at: number };
    expect(second.id).not.toBe(first.id);
    expect(second).toMatchObject({
      event: 'attempt.scored',
      attempt_id: attemptId,
      score: rescored,
      scored_at: s.t.now() - 1_000,
    });
    expect((await deliveries({ attempt_id: attemptId })).map((d) => [d.status, d.score])).toEqual([
      ['delivered', scored],
      ['delivered', rescored],
    ]);
  });

  it("team endpoints hear only their team's exams; paused ones hear nothing", async () => {
    const teamA = await s.t.team('Team A');
    const teamB = await s.t.team('Team B');
    await s.t.db.handle.db.updateTable('exams').set({ team_id: teamA }).where('id', '=', s.examId).execute();
    const b = await startHookReceiver(SECRET);
    try {
      await endpoint({ team_id: teamA });
      await ok(api.webhookSave, { url: b.url, secret: SECRET, team_id: teamB });
      const paused = await ok<WebhookEndpointView>(api.webhookSave, { url: b.url, secret: SECRET, enabled: false });
      expect(paused.enabled).toBe(false);
      const single = await questionOf('single');
      await submitted({ [single]: { kind: 'choice', option: 'A' } });
      expect(await s.t.services.webhooks.deliver()).toBe(1);
      expect([receiver.received.length, b.received.length]).toEqual([1, 0]);
    } finally {
      await b.close();
    }
  });

  it('the console: refuses other schemes, never shows the secret, redelivers, deletes; admins only', async () => {
    for (const url of [
      'ftp://ats.example.com/x',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'http://u:p@ats.example.com/',
    ]) {
      const res = await call(api.webhookSave, { url, secret: SECRET });
      expect([res.http, res.code], url).toEqual([422, 'validation_error']);
    }
    const noSecret = await call(api.webhookSave, { url: receiver.url });
    expect([noSecret.http, noSecret.msg]).toEqual([422, 'secret: give a new endpoint its secret']);
    const short = await call(api.webhookSave, { url: receiver.url, secret: 'short' });
    expect(short.http).toBe(422);
    const made = await endpoint();
    const listed = await call(api.webhookList);
    expect(JSON.stringify(listed)).not.toContain(SECRET);
    // A change without a secret keeps the current one.
    await ok(api.webhookSave, { id: made.id, url: receiver.url, description: 'Renamed' });
    expect((await ok<WebhookTestData>(api.webhookTest, { id: made.id })).ok).toBe(true);
    expect(receiver.received[0]!.verified).toBe(true);

    receiver.answers.push(410);
    const failed = await ok<WebhookTestData>(api.webhookTest, { id: made.id });
    expect(failed).toMatchObject({ ok: false, status: 410 });
    // A test is not tried again.
    const [ping] = await deliveries({ status: 'failed' });
    expect(ping).toMatchObject({ event: 'ping', attempts: 1, next_at: null });
    expect((await call(api.webhookRedeliver, { id: ping!.id })).code).toBe('conflict');

    // An event given up on is sent again on request, and only once acknowledged.
    receiver.answers.push(500);
    const single = await questionOf('single');
    await submitted({ [single]: { kind: 'choice', option: 'A' } });
    await s.t.db.handle.db
      .updateTable('webhook_deliveries')
      .set({ attempts: 79 })
      .where('status', '=', 'pending')
      .execute();
    await s.t.services.webhooks.deliver();
    const [given] = await deliveries({ status: 'failed', order: 'desc' });
    expect(given).toMatchObject({ event: 'attempt.scored', attempts: 80, status: 'failed' });
    const again = await ok<{ status: string; attempts: number }>(api.webhookRedeliver, { id: given!.id });
    expect(again).toMatchObject({ status: 'pending', attempts: 0 });
    expect(await s.t.services.webhooks.deliver()).toBe(1);

    const author = await s.t.loginStaff('author');
    expect((await call(api.webhookList, {}, author)).http).toBe(403);
    expect((await call(api.apiTokenList, {}, author)).http).toBe(403);

    await ok(api.webhookDelete, { id: made.id });
    expect((await ok<WebhookListData>(api.webhookList)).list).toEqual([]);
    expect(await deliveries()).toEqual([]);
    expect((await call(api.webhookDelete, { id: made.id })).http).toBe(404);
  });

  it('API tokens: shown once, stored hashed, used with last use noted, revoked to 401, limited to a team, never logged', async () => {
    const teamA = await s.t.team('Team A');
    const teamB = await s.t.team('Team B');
    await s.t.db.handle.db.updateTable('exams').set({ team_id: teamA }).where('id', '=', s.examId).execute();
    const single = await questionOf('single');
    const one = await submitted({ [single]: { kind: 'choice', option: 'A' } });
    const two = await submitted({ [single]: { kind: 'choice', option: 'B' } });
    const qa = await questionOf('qa');
    // Waiting for a grader: not a final result yet.
    const waiting = await submitted({ [qa]: { kind: 'text', html: '<p>x</p>', files: [] } });

    const made = await ok<ApiTokenCreateData>(api.apiTokenCreate, { name: 'Moka ATS' });
    expect(made.token).toMatch(/^exh_[A-Za-z0-9_-]{43}$/);
    expect(made.api_token).toMatchObject({
      name: 'Moka ATS',
      scope: 'read-results',
      team_id: null,
      last_used_at: null,
    });
    expect(made.token.startsWith(made.api_token.prefix)).toBe(true);
    const stored = await s.t.db.handle.db.selectFrom('api_tokens').selectAll().executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(made.token);
    const listed = await ok<ApiTokenListData>(api.apiTokenList);
    expect(JSON.stringify(listed)).not.toContain(made.token);

    const results = async (token: string, query = '') =>
      s.t.app.inject({ method: 'GET', url: `/api/v1/results${query}`, headers: { authorization: `Bearer ${token}` } });
    s.t.advance(5_000);
    const res = await results(made.token);
    expect(res.statusCode, res.body).toBe(200);
    const data = body<ResultListData>(res).data;
    expect(data.list.map((r) => r.attempt_id)).toEqual([one.attemptId, two.attemptId]);
    expect(data.list.map((r) => r.attempt_id)).not.toContain(waiting.attemptId);
    const attempt = (await s.t.services.attempts.byId(one.attemptId))!;
    expect(data.list[0]).toMatchObject({
      exam_id: s.examId,
      candidate: { phone: one.phone, name: 'Li Lei' },
      score: attempt.score,
      max_score: attempt.max_score,
      finished_at: attempt.finished_at,
    });
    expect(data.next_after).toBeNull();
    expect((await ok<ApiTokenListData>(api.apiTokenList)).list[0]!.last_used_at).toBe(s.t.now());

    // Paged by cursor.
    const page1 = body<ResultListData>(await results(made.token, `?exam_id=${s.examId}&limit=1`)).data;
    expect([page1.list.map((r) => r.attempt_id), page1.next_after]).toEqual([[one.attemptId], one.attemptId]);
    const page2 = body<ResultListData>(
      await results(made.token, `?exam_id=${s.examId}&limit=1&after=${page1.next_after}`),
    ).data;
    expect([page2.list.map((r) => r.attempt_id), page2.next_after]).toEqual([[two.attemptId], null]);
    const bad = await results(made.token, '?limit=0');
    expect([bad.statusCode, body(bad).code]).toEqual([422, 'validation_error']);

    // A team's token reads its team's exams; another team's exam is refused like a missing one.
    const teamToken = (await ok<ApiTokenCreateData>(api.apiTokenCreate, { name: 'Team B ATS', team_id: teamB })).token;
    const foreign = await results(teamToken, `?exam_id=${s.examId}`);
    expect([foreign.statusCode, body(foreign).code]).toEqual([404, 'not_found']);
    expect(body<ResultListData>(await results(teamToken)).data.list).toEqual([]);
    const ownToken = (await ok<ApiTokenCreateData>(api.apiTokenCreate, { name: 'Team A ATS', team_id: teamA })).token;
    expect(body<ResultListData>(await results(ownToken, `?exam_id=${s.examId}`)).data.list).toHaveLength(2);
    expect((await call(api.apiTokenCreate, { name: 'Nowhere', team_id: 999_999 })).http).toBe(404);

    // No token, a staff token, a made-up one, a token in the query or a cookie: 401.
    const none = await s.t.app.inject({ method: 'GET', url: '/api/v1/results' });
    expect([none.statusCode, body(none).code]).toEqual([401, 'not_logged_in']);
    expect((await results(s.admin)).statusCode).toBe(401);
    expect((await results(`exh_${'x'.repeat(43)}`)).statusCode).toBe(401);
    expect((await s.t.app.inject({ method: 'GET', url: `/api/v1/results?token=${made.token}` })).statusCode).toBe(401);
    expect((await s.t.app.inject({ method: 'GET', url: `/api/v1/results?auth=${made.token}` })).statusCode).toBe(401);

    const revoked = await ok<{ revoked_at: number | null }>(api.apiTokenRevoke, { id: made.api_token.id });
    expect(revoked.revoked_at).toBe(s.t.now());
    const after = await results(made.token);
    expect([after.statusCode, body(after).code]).toEqual([401, 'not_logged_in']);
    expect((await ok<ApiTokenListData>(api.apiTokenList)).list.map((x) => x.id)).not.toContain(made.api_token.id);
    expect((await ok<ApiTokenListData>(api.apiTokenList, { show: 'all' })).list.map((x) => x.id)).toContain(
      made.api_token.id,
    );

    // Every request above was logged; no token reached a line (the header is redacted, the query value replaced).
    const logs = s.t.logs.join('');
    expect(logs).toContain('/v1/results');
    for (const token of [made.token, teamToken, ownToken]) expect(logs).not.toContain(token);
    expect(logs).not.toContain(made.token.slice(4));
  });

  it('API tokens: each held to its requests of the minute (429 with the wait), another token not, the next minute again', async () => {
    const results = async (token: string) =>
      s.t.app.inject({ method: 'GET', url: '/api/v1/results?limit=1', headers: { authorization: `Bearer ${token}` } });
    const busy = (await ok<ApiTokenCreateData>(api.apiTokenCreate, { name: 'Busy ATS' })).token;
    const calm = (await ok<ApiTokenCreateData>(api.apiTokenCreate, { name: 'Calm ATS' })).token;
    for (let sent = 0; sent < API_TOKEN_REQUESTS_PER_MINUTE; sent += 50) {
      const batch = await Promise.all(Array.from({ length: 50 }, () => results(busy)));
      expect(batch.map((r) => r.statusCode)).toEqual(batch.map(() => 200));
    }
    s.t.advance(20_000);
    const refused = await results(busy);
    expect([refused.statusCode, body(refused).code]).toEqual([429, 'rate_limited']);
    expect(body<null>(refused).data).toEqual({ retry_after_s: 40 });
    expect((await results(calm)).statusCode).toBe(200);
    s.t.advance(40_000);
    expect((await results(busy)).statusCode).toBe(200);
  });
});

describe.each(await testedDialects())('webhook addresses on %s', (dialect) => {
  // The operator's default: webhooks reach public addresses only.
  const s = adminApp(dialect, { each: true, seed: false });
  const { call, ok } = s;

  it('refuses to save an address of this machine or a private network, however it is written, and nothing is stored', async () => {
    for (const url of [
      'http://127.0.0.1:8080/hook',
      'http://2130706433/',
      'http://[::1]/',
      'http://[::7f00:1]/',
      'http://[::ffff:0:7f00:1]/',
      'http://[::ffff:7f00:1]/',
      'http://[64:ff9b::a9fe:a9fe]/latest/meta-data/',
      'http://[2002:c0a8:101::]/',
      'http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/',
      'http://[fec0::1]/',
      'http://[fd00::1]/',
      'http://[fe80::1]/',
      'http://100.64.0.1/',
      'http://198.18.0.1/',
      'http://192.0.2.10/',
      'https://localhost/hook',
    ]) {
      const res = await call(api.webhookSave, { url, secret: SECRET });
      expect([res.http, res.code], url).toEqual([422, 'webhook_address_refused']);
      expect(res.msg, url).toMatch(/is not a public address|is this machine/);
    }
    expect((await ok<WebhookListData>(api.webhookList)).list).toEqual([]);
    // A public address, and a name (checked once resolved, at each POST), are saved.
    const saved = await ok<WebhookEndpointView>(api.webhookSave, {
      url: 'https://[2606:4700::1111]/x',
      secret: SECRET,
    });
    const renamed = await call(api.webhookSave, { id: saved.id, url: 'http://[::ffff:0:a00:1]/' });
    expect([renamed.http, renamed.code]).toEqual([422, 'webhook_address_refused']);
    await ok(api.webhookSave, { url: 'https://ats.example.com/hooks/examhall', secret: SECRET });
    expect((await ok<WebhookListData>(api.webhookList)).list.map((e) => e.url).sort()).toEqual([
      'https://[2606:4700::1111]/x',
      'https://ats.example.com/hooks/examhall',
    ]);
  });
});
