/**
 * GET /user/send-msg paced to the SMS provider, over HTTP with a real webhook provider and real timers, on both
 * databases and both limiters: a burst beyond the rate answers at once, the queued calls with their delay, the
 * codes reach the provider spread at the rate and once each, past the longest wait the call answers 429
 * sms_queue_full, a queued code the provider refuses lets the candidate ask again at once, and no code is logged.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RedisRateLimiter, type RateLimiter } from '../ratelimit/limiter.js';
import { body, createTestApp, type TestApp } from '../test/app.js';
import { testedDialects } from '../test/db.js';
import { requirePart, TEST_REDIS_URL } from '../test/parts.js';

const redisHere = await requirePart('redis');

const limiters: [string, () => RateLimiter | undefined][] = [
  ['in-process limiter', () => undefined],
  ...(redisHere
    ? [
        [
          // Each app closes its limiter, and the connection with it.
          'Redis limiter',
          () => new RedisRateLimiter(new Redis(TEST_REDIS_URL), `examhall:test:${randomBytes(4).toString('hex')}:`),
        ] as [string, () => RateLimiter],
      ]
    : []),
];
const cases = (await testedDialects()).flatMap((d) => limiters.map(([name, make]) => ({ d, name, make })));

/** 10 codes a second, waiting at most 1 s: 11 turns (now, then every 100 ms up to 1 s). */
const PACED = { SMS_RATE: '10', SMS_LOGIN_RATE: '10', SMS_LOGIN_MAX_WAIT: '1' };
const phoneOf = (i: number) => `1390000${String(i).padStart(4, '0')}`;

async function until(ok: () => boolean, ms = 5_000): Promise<void> {
  for (const end = Date.now() + ms; !ok();) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe.each(cases)('send-msg paced on $d with the $name', ({ d, make }) => {
  let t: TestApp;
  beforeEach(async () => {
    const limiter = make();
    t = await createTestApp(d, { env: PACED, ...(limiter ? { limiter } : {}) });
  });
  afterEach(async () => t.close());

  const send = (phone: string, ip = '10.0.0.1') =>
    t.app.inject({ method: 'GET', url: `/api/user/send-msg?phone=${phone}&area_code=86`, remoteAddress: ip });
  const received = (phone: string) => t.sms.messages.filter((m) => m.phone === phone);

  it('answers a burst at once, sends it paced at the rate and refuses past the longest wait', async () => {
    const started = performance.now();
    const answers = [];
    for (let i = 0; i < 12; i++) answers.push(await send(phoneOf(i), `10.0.${i}.1`));
    // The last accepted call answered without waiting for its turn, a second away.
    expect(received(phoneOf(10))).toHaveLength(0);
    expect(answers.slice(0, 11).map((r) => r.statusCode)).toEqual(Array(11).fill(200));
    expect(body(answers[0]!).data).toEqual({ resend_after: 60, expires_in: 300, delay: 0 });
    expect(body(answers[5]!).data).toEqual({ resend_after: 61, expires_in: 301, delay: 1 });
    expect(answers[11]!.statusCode).toBe(429);
    expect(body(answers[11]!)).toMatchObject({
      status: 'error',
      code: 'sms_queue_full',
      msg: 'very many verification codes are being sent at once, please request yours again in a minute',
    });

    const arrivals: number[] = [];
    await until(() => {
      for (let i = arrivals.length; i < 11 && received(phoneOf(i)).length > 0; i++) arrivals.push(performance.now());
      return arrivals.length === 11;
    });
    // Paced: the 11 codes took about a second to go out (turns every 100 ms), not all at once.
    expect(arrivals[10]! - started).toBeGreaterThanOrEqual(900);
    await new Promise((r) => setTimeout(r, 200));
    for (let i = 0; i < 11; i++) expect(received(phoneOf(i))).toHaveLength(1);
    expect(received(phoneOf(11))).toHaveLength(0);

    // A queued code logs in like any other.
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/user/login',
      payload: { phone: phoneOf(10), area_code: '86', code: t.sms.lastCode(phoneOf(10)) },
      remoteAddress: '10.0.10.1',
    });
    expect(res.statusCode).toBe(200);
    const codes = t.sms.messages.map((m) => m.code!);
    for (const line of t.logs) for (const code of codes) expect(line).not.toContain(code);
  });

  it('lets the candidate ask again at once when a queued code was refused, and logs it without code or phone', async () => {
    expect((await send(phoneOf(0))).statusCode).toBe(200);
    t.sms.failing = true;
    const queued = await send(phoneOf(1));
    expect(body<{ delay: number }>(queued).data.delay).toBe(1);
    await until(() => t.logs.some((l) => l.includes('not delivered')));
    t.sms.failing = false;
    // A second later the queue is empty again: the next code goes in the request.
    t.advance(1_000);
    const again = await send(phoneOf(1));
    expect(again.statusCode).toBe(200);
    expect(received(phoneOf(1))).toHaveLength(1);
    const refusal = t.logs.find((l) => l.includes('not delivered'))!;
    expect(refusal).toContain('139****0001');
    expect(refusal).not.toContain(phoneOf(1));
    for (const m of t.sms.messages) for (const line of t.logs) expect(line).not.toContain(m.code!);
  });
});
