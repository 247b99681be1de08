import { randomUUID } from 'node:crypto';
import type { CandidateEvent, ProctorEvent } from '@examhall/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RedisNotifier } from '../proctoring/notifier.js';
import { ProctorService } from '../services/proctor.js';
import { body, createTestApp, type TestApp } from '../test/app.js';
import { testedDialects } from '../test/db.js';
import { requirePart, TEST_REDIS_URL } from '../test/parts.js';
import { openSse, type SseClient } from '../test/sse.js';
import { enterExam } from '../test/checks.js';

const redisHere = await requirePart('redis');
const PHONE = '13800138000';

describe.runIf(redisHere).each(await testedDialects())('live streams through Redis on %s', (dialect) => {
  let t: TestApp;
  let here: RedisNotifier;
  let there: RedisNotifier;
  const open: SseClient<unknown>[] = [];

  beforeEach(async () => {
    // Each run its own channel: runs of other files on the same Redis are not heard.
    const channel = `examhall:test:${randomUUID()}`;
    here = new RedisNotifier(TEST_REDIS_URL, undefined, channel);
    there = new RedisNotifier(TEST_REDIS_URL, undefined, channel);
    await Promise.all([here.ready, there.ready]);
    t = await createTestApp(dialect, { notifier: here });
  });
  afterEach(async () => {
    for (const c of open.splice(0)) c.close();
    await t.close();
    await Promise.all([here.close(), there.close()]);
  });

  it('a proctor watching through one API process sees what a candidate did through it, and a warning sent through another process reaches the candidate', async () => {
    const { examId, anid } = await t.seed(PHONE);
    const token = await t.loginCandidate(PHONE);
    const admin = { token: await t.loginStaff('admin') };
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const started = await enterExam(t, token, examId, anid);
    const attemptId = body<{ attempt: { id: number } }>(started).data.attempt.id;

    const console = await openSse<ProctorEvent>(`${base}/api/admin/proctor/stream?exam_id=${examId}`, {
      authorization: `Bearer ${admin.token}`,
    });
    const events = await openSse<CandidateEvent>(`${base}/api/monitor/events?exam_id=${examId}&auth=${token}`);
    open.push(console, events);
    await console.next((e) => e.type === 'hello');
    await events.next((e) => e.type === 'hello');

    // The other process hears this one's changes.
    const heardThere: number[] = [];
    there.listen((c) => {
      if (c.type === 'record') heardThere.push(c.recordId);
    });
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/monitor/record-risk?auth=${token}`,
      payload: `exam_id=${examId}&risk=4&trigger_time=${t.now()}&client_id=${randomUUID()}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    const recordId = body<{ id: number }>(res).data.id;
    await console.next((e) => e.type === 'risk' && e.record.id === recordId, 2_000);
    await expect.poll(() => heardThere, { timeout: 2_000 }).toEqual([recordId]);

    // Another API process (its own services, the same database and Redis) sends a warning.
    const otherProcess = new ProctorService(
      t.db.handle.db,
      t.services.attempts,
      t.store,
      there,
      t.services.access,
      t.services.audit,
      t.now,
      t.app.log,
    );
    const actor = (await t.services.staff.resolve(admin.token))!;
    const warning = await otherProcess.warn(actor, attemptId, 'Please face the camera.');
    expect(await events.next((e) => e.type === 'warning', 2_000)).toEqual({ type: 'warning', warning });
  });
});
