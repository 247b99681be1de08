import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { Hub } from '../cluster/hub.js';
import { IpcRateLimiter, type IpcChannel, type IpcMessage } from '../cluster/ipc.js';
import { requirePart, TEST_REDIS_URL } from '../test/parts.js';
import { MemoryRateLimiter, RedisRateLimiter, type RateLimiter } from './limiter.js';

const redisHere = await requirePart('redis');
const redis = redisHere ? new Redis(TEST_REDIS_URL) : null;
afterAll(() => redis?.disconnect());

function contract(name: string, make: () => { limiter: RateLimiter; wait: (ms: number) => Promise<void> }) {
  describe(name, () => {
    it('allows up to the limit within a window, then refuses, and counts without hitting', async () => {
      const { limiter } = make();
      const key = `k-${randomBytes(4).toString('hex')}`;
      for (let i = 1; i <= 3; i++) expect(await limiter.hit(key, 3, 60_000)).toMatchObject({ allowed: true, count: i });
      expect(await limiter.hit(key, 3, 60_000)).toMatchObject({ allowed: false, count: 4 });
      expect(await limiter.count(key)).toBe(4);
      expect(await limiter.count(`${key}-other`)).toBe(0);
    });

    it('starts a new window when the old one ends, and forgets a reset key', async () => {
      const { limiter, wait } = make();
      const key = `k-${randomBytes(4).toString('hex')}`;
      await limiter.hit(key, 1, 200);
      expect((await limiter.hit(key, 1, 200)).allowed).toBe(false);
      await wait(250);
      expect(await limiter.hit(key, 1, 200)).toMatchObject({ allowed: true, count: 1 });
      await limiter.reset(key);
      expect(await limiter.count(key)).toBe(0);
    });

    it('gives evenly paced turns in a queue, keeps a member its turn, and never gives a turn in the past', async () => {
      const { limiter } = make();
      const q = `q-${randomBytes(4).toString('hex')}`;
      const now = 1_000_000;
      expect(await limiter.turn(q, 'a', 100, 60_000, now)).toBe(now);
      expect(await limiter.turn(q, 'b', 100, 60_000, now)).toBe(now + 100);
      expect(await limiter.turn(q, 'c', 100, 60_000, now + 10)).toBe(now + 200);
      // Asking again keeps one's place, whenever one asks.
      expect(await limiter.turn(q, 'b', 100, 60_000, now + 150)).toBe(now + 100);
      // Another queue is paced on its own.
      expect(await limiter.turn(`${q}-other`, 'a', 100, 60_000, now)).toBe(now);
      // Long after the last turn, the next member goes at once.
      expect(await limiter.turn(q, 'd', 100, 60_000, now + 5_000)).toBe(now + 5_000);
    });

    it('answers a turn past the latest one asked for without giving it, so the queue stays as it was', async () => {
      const { limiter } = make();
      const q = `q-${randomBytes(4).toString('hex')}`;
      const now = 1_000_000;
      expect(await limiter.turn(q, 'a', 100, 60_000, now, now + 150)).toBe(now);
      expect(await limiter.turn(q, 'b', 100, 60_000, now, now + 150)).toBe(now + 100);
      // Too late for c: answered, not taken, and again not taken when c asks again.
      expect(await limiter.turn(q, 'c', 100, 60_000, now, now + 150)).toBe(now + 200);
      expect(await limiter.turn(q, 'c', 100, 60_000, now, now + 150)).toBe(now + 200);
      // Whoever will wait longer gets the turn c did not take.
      expect(await limiter.turn(q, 'd', 100, 60_000, now)).toBe(now + 200);
      expect(await limiter.turn(q, 'e', 100, 60_000, now)).toBe(now + 300);
    });

    it('leases places under every key, all or none; release frees one, renewal keeps one, an unrenewed one lapses', async () => {
      const { limiter, wait } = make();
      const k = `k-${randomBytes(4).toString('hex')}`;
      const token = { key: `${k}-token`, limit: 2 };
      const ip = { key: `${k}-ip`, limit: 3 };
      const a = await limiter.lease([token, ip], 300);
      const b = await limiter.lease([token, ip], 300);
      expect(a && b).toBeTruthy();
      // The token is full: nothing is taken from the address either.
      expect(await limiter.lease([token, ip], 300)).toBeNull();
      const other = { key: `${k}-token2`, limit: 2 };
      expect(await limiter.lease([other, ip], 300)).not.toBeNull();
      expect(await limiter.lease([other, ip], 300)).toBeNull();
      await a!.release();
      await a!.release();
      const c = await limiter.lease([token, ip], 300);
      expect(c).not.toBeNull();
      await wait(200);
      await c!.renew();
      await wait(200);
      // b lapsed, c was renewed: one place is free under the token.
      expect(await limiter.lease([token], 300)).not.toBeNull();
      expect(await limiter.lease([token], 300)).toBeNull();
    });
  });
}

contract('in-process limiter', () => {
  let now = 1_000_000;
  return {
    limiter: new MemoryRateLimiter(() => now),
    wait: async (ms) => {
      now += ms;
    },
  };
});

/**
 * Two ends of a channel as the supervisor and a process it started hold them: each message arrives later, a copy
 * (as over node's IPC).
 */
function channelPair(): [IpcChannel, IpcChannel] {
  const listeners = [new Set<(m: IpcMessage) => void>(), new Set<(m: IpcMessage) => void>()];
  const end = (me: 0 | 1): IpcChannel => ({
    send: (message) => {
      const copy = structuredClone(message);
      setImmediate(() => {
        for (const fn of listeners[1 - me]!) fn(copy);
      });
    },
    onMessage: (fn) => {
      listeners[me]!.add(fn);
      return () => listeners[me]!.delete(fn);
    },
  });
  return [end(0), end(1)];
}

/** A process's limiter joined to the supervisor's hub; `leave` is its process ending. */
function joined(hub: Hub): { limiter: IpcRateLimiter; leave: () => void } {
  const [supervisorEnd, processEnd] = channelPair();
  return { limiter: new IpcRateLimiter(processEnd), leave: hub.join(supervisorEnd) };
}

contract("the supervisor's limiter, through a process's channel", () => ({
  limiter: joined(new Hub()).limiter,
  wait: (ms) => new Promise((r) => setTimeout(r, ms)),
}));

describe("the supervisor's limiter shared by its processes", () => {
  it('counts hits, paces admission turns and holds leases across processes; a process that ends gives its places back', async () => {
    const hub = new Hub();
    const a = joined(hub);
    const b = joined(hub);
    await a.limiter.hit('shared', 2, 60_000);
    await b.limiter.hit('shared', 2, 60_000);
    expect((await a.limiter.hit('shared', 2, 60_000)).allowed).toBe(false);
    expect(await b.limiter.count('shared')).toBe(3);
    const now = 1_000_000;
    expect(await a.limiter.turn('admission', 'x', 100, 60_000, now)).toBe(now);
    expect(await b.limiter.turn('admission', 'y', 100, 60_000, now)).toBe(now + 100);
    expect(await a.limiter.turn('admission', 'z', 100, 60_000, now)).toBe(now + 200);
    expect(await b.limiter.turn('admission', 'x', 100, 60_000, now + 50)).toBe(now);
    expect(await a.limiter.lease([{ key: 'stream:1', limit: 1 }], 60_000)).not.toBeNull();
    expect(await b.limiter.lease([{ key: 'stream:1', limit: 1 }], 60_000)).toBeNull();
    a.leave();
    expect(await b.limiter.lease([{ key: 'stream:1', limit: 1 }], 60_000)).not.toBeNull();
  });
});

describe.skipIf(!redisHere)('Redis limiter', () => {
  contract('shared counters', () => ({
    limiter: new RedisRateLimiter(redis as Redis, `examhall:test:${randomBytes(4).toString('hex')}:`),
    wait: (ms) => new Promise((r) => setTimeout(r, ms)),
  }));

  it('shares one count between two processes’ clients', async () => {
    const prefix = `examhall:test:${randomBytes(4).toString('hex')}:`;
    const other = new Redis(TEST_REDIS_URL);
    const a = new RedisRateLimiter(redis as Redis, prefix);
    const b = new RedisRateLimiter(other, prefix);
    await a.hit('shared', 2, 60_000);
    await b.hit('shared', 2, 60_000);
    expect((await a.hit('shared', 2, 60_000)).allowed).toBe(false);
    other.disconnect();
  });
});
