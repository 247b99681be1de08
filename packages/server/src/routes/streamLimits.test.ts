/** Limits on open event streams, per token and per address, over real HTTP; in-process and through Redis. */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RedisRateLimiter, type RateLimiter } from '../ratelimit/limiter.js';
import { createTestApp, type TestApp } from '../test/app.js';
import { testedDialects } from '../test/db.js';
import { requirePart, TEST_REDIS_URL } from '../test/parts.js';
import { openSse, type SseClient } from '../test/sse.js';

const redisHere = await requirePart('redis');
const LIMITS = { SSE_MAX_PER_TOKEN: '2', SSE_MAX_PER_IP: '3' };

function streamLimits(name: string, makeLimiter: () => RateLimiter | undefined, dialects: string[]) {
  describe.each(dialects)(`${name} on %s`, (dialect) => {
    let t: TestApp;
    let base = '';
    let examId = 0;
    let admin = '';
    let proctor = '';
    const open: SseClient<unknown>[] = [];

    beforeAll(async () => {
      const limiter = makeLimiter();
      t = await createTestApp(dialect as 'sqlite' | 'postgres', { env: LIMITS, ...(limiter ? { limiter } : {}) });
      ({ examId } = await t.seed());
      admin = await t.loginStaff('admin');
      proctor = await t.loginStaff('proctor', { examId });
      base = await t.app.listen({ host: '127.0.0.1', port: 0 });
    });
    afterEach(() => {
      for (const c of open.splice(0)) c.close();
    });
    afterAll(async () => t.close());

    const stream = async (token: string) => {
      const c = await openSse(`${base}/api/admin/proctor/stream?exam_id=${examId}`, {
        authorization: `Bearer ${token}`,
      });
      open.push(c);
      return c;
    };
    const refused = async (token: string) => {
      const res = await fetch(`${base}/api/admin/proctor/stream?exam_id=${examId}`, {
        headers: { accept: 'text/event-stream', authorization: `Bearer ${token}` },
      });
      return { status: res.status, body: (await res.json()) as unknown };
    };
    /** Opens a stream once a place is free again (the server sees the close a moment after the client). */
    const openWhenFree = async (token: string) => {
      for (let i = 0; i < 50; i++) {
        const c = await stream(token);
        if (c.status === 200) return c;
        c.close();
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error('no place became free');
    };

    it('a token holds at most SSE_MAX_PER_TOKEN streams: one more answers 429 rate_limited; closing one frees its place', async () => {
      const first = await stream(admin);
      expect((await stream(admin)).status).toBe(200);
      expect(first.status).toBe(200);
      expect(await refused(admin)).toEqual({
        status: 429,
        body: { status: 'error', code: 'rate_limited', msg: expect.any(String), data: null },
      });
      first.close();
      expect((await openWhenFree(admin)).status).toBe(200);
    });

    it('an address holds at most SSE_MAX_PER_IP streams, whichever tokens they use', async () => {
      await openWhenFree(admin);
      await openWhenFree(admin);
      expect((await stream(proctor)).status).toBe(200);
      // The proctor's token has a place left, the address has none.
      expect(await refused(proctor)).toMatchObject({ status: 429, body: { code: 'rate_limited' } });
    });
  });
}

streamLimits('event stream limits in one process', () => undefined, await testedDialects());

describe.skipIf(!redisHere)('through Redis', () => {
  const redis = redisHere ? new Redis(TEST_REDIS_URL) : null;
  afterAll(() => redis?.disconnect());
  streamLimits(
    'event stream limits shared through Redis',
    () => new RedisRateLimiter(new Redis(TEST_REDIS_URL), `examhall:test:${randomBytes(4).toString('hex')}:`),
    ['sqlite'],
  );

  it('two processes (two connections) share the places, and a place not renewed lapses', async () => {
    const prefix = `examhall:test:${randomBytes(4).toString('hex')}:`;
    const here = new RedisRateLimiter(new Redis(TEST_REDIS_URL), prefix);
    const there = new RedisRateLimiter(new Redis(TEST_REDIS_URL), prefix);
    try {
      const keys = [{ key: 'sse:token:x', limit: 2 }];
      const a = await here.lease(keys, 60_000);
      const b = await there.lease(keys, 300);
      expect(a && b).toBeTruthy();
      expect(await here.lease(keys, 60_000)).toBeNull();
      expect(await there.lease(keys, 60_000)).toBeNull();
      await a!.release();
      const c = await there.lease(keys, 60_000);
      expect(c).not.toBeNull();
      // b was never renewed: its place lapses.
      await new Promise((r) => setTimeout(r, 400));
      expect(await here.lease(keys, 60_000)).not.toBeNull();
      expect(await here.lease(keys, 60_000)).toBeNull();
    } finally {
      await here.close();
      await there.close();
    }
  });
});
