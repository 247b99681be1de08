import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { requirePart, TEST_REDIS_URL as REDIS_URL } from '../test/parts.js';
import { InProcessNotifier, RedisNotifier, type ProctorChange, type ProctorNotifier } from './notifier.js';

const redisHere = await requirePart('redis');

/** Resolves with the first `n` changes `notifier` hears. */
function hear(notifier: ProctorNotifier, n: number): Promise<ProctorChange[]> {
  const got: ProctorChange[] = [];
  return new Promise((resolve) => {
    const stop = notifier.listen((c) => {
      got.push(c);
      if (got.length === n) {
        stop();
        resolve(got);
      }
    });
  });
}

describe('proctor notifiers', () => {
  const open: ProctorNotifier[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((n) => n.close()));
  });

  it('in process: a listener hears every change, a failing listener does not stop the others', async () => {
    const n = new InProcessNotifier();
    open.push(n);
    n.listen(() => {
      throw new Error('a broken listener');
    });
    const heard = hear(n, 2);
    n.announce({ type: 'record', attemptId: 1, recordId: 2 });
    n.announce({ type: 'warning', attemptId: 1, warningId: 3 });
    expect(await heard).toEqual([
      { type: 'record', attemptId: 1, recordId: 2 },
      { type: 'warning', attemptId: 1, warningId: 3 },
    ]);
  });

  it("in process: a listener to one attempt hears that attempt's changes only, until it stops", async () => {
    const n = new InProcessNotifier();
    open.push(n);
    const mine: ProctorChange[] = [];
    const stop = n.listen((c) => mine.push(c), 7);
    const other: ProctorChange[] = [];
    n.listen((c) => other.push(c), 8);
    const all = hear(n, 3);
    n.announce({ type: 'attempt', attemptId: 7 });
    n.announce({ type: 'warning', attemptId: 8, warningId: 1 });
    n.announce({ type: 'record', attemptId: 7, recordId: 2 });
    await all;
    expect(mine).toEqual([
      { type: 'attempt', attemptId: 7 },
      { type: 'record', attemptId: 7, recordId: 2 },
    ]);
    expect(other).toEqual([{ type: 'warning', attemptId: 8, warningId: 1 }]);
    stop();
    const after = hear(n, 1);
    n.announce({ type: 'attempt', attemptId: 7 });
    await after;
    expect(mine).toHaveLength(2);
  });

  it.runIf(redisHere)(
    'through Redis: an announce in one notifier reaches listeners on another connected to the same Redis',
    async () => {
      const channel = `examhall:test:${randomUUID()}`;
      const a = new RedisNotifier(REDIS_URL, undefined, channel);
      const b = new RedisNotifier(REDIS_URL, undefined, channel);
      open.push(a, b);
      await Promise.all([a.ready, b.ready]);
      const onB = hear(b, 3);
      const onA = hear(a, 3);
      // A candidate's stream on the other process hears its attempt's changes.
      const attemptOnB = new Promise<ProctorChange[]>((resolve) => {
        const got: ProctorChange[] = [];
        b.listen((c) => {
          got.push(c);
          if (got.length === 3) resolve(got);
        }, 41);
      });
      const changes: ProctorChange[] = [
        { type: 'attempt', attemptId: 41 },
        { type: 'record', attemptId: 41, recordId: 7 },
        { type: 'warning', attemptId: 41, warningId: 9 },
      ];
      for (const c of changes) a.announce(c);
      // Both processes hear the same changes in the same order, the announcing one included.
      expect(await onB).toEqual(changes);
      expect(await onA).toEqual(changes);
      expect(await attemptOnB).toEqual(changes);
    },
  );

  it.runIf(redisHere)('through Redis: messages that are not changes are ignored', async () => {
    const channel = `examhall:test:${randomUUID()}`;
    const a = new RedisNotifier(REDIS_URL, undefined, channel);
    open.push(a);
    await a.ready;
    const heard = hear(a, 1);
    const { Redis } = await import('ioredis');
    const raw = new Redis(REDIS_URL);
    try {
      await raw.publish(channel, 'not json');
      await raw.publish(channel, JSON.stringify({ type: 'record', attemptId: 'x' }));
      await raw.publish(channel, JSON.stringify({ type: 'attempt', attemptId: 5 }));
    } finally {
      await raw.quit();
    }
    expect(await heard).toEqual([{ type: 'attempt', attemptId: 5 }]);
  });
});
