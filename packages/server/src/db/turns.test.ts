import { describe, expect, it } from 'vitest';
import { inTurns } from './turns.js';

const busy = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end);
};

describe('inTurns', () => {
  it('writes every item once, in order, in batches of the size asked', async () => {
    const batches: number[][] = [];
    await inTurns(
      Array.from({ length: 25 }, (_, i) => i),
      async (b) => void batches.push([...b]),
      10,
    );
    expect(batches.map((b) => b.length)).toEqual([10, 10, 5]);
    expect(batches.flat()).toEqual(Array.from({ length: 25 }, (_, i) => i));
  });

  it('leaves the writer free after each batch for at least as long as the batch held it', async () => {
    const spans: { start: number; end: number }[] = [];
    await inTurns(
      Array.from({ length: 5 }, (_, i) => i),
      async () => {
        const start = performance.now();
        busy(15);
        spans.push({ start, end: performance.now() });
      },
      1,
    );
    expect(spans).toHaveLength(5);
    for (let i = 1; i < spans.length; i++) {
      const held = spans[i - 1]!.end - spans[i - 1]!.start;
      // A timer counts from the event loop's cached time, which lags the clock by as long as the loop's turn took:
      // on a loaded machine it fires a millisecond or more early by performance.now(). Two milliseconds of slack.
      expect(spans[i]!.start - spans[i - 1]!.end).toBeGreaterThanOrEqual(held - 2);
    }
  });

  it('lets other work of the process run between batches (a waiting save polls on a timer)', async () => {
    let ticks = 0;
    const timer = setInterval(() => (ticks += 1), 1);
    try {
      await inTurns(
        Array.from({ length: 10 }, (_, i) => i),
        async () => busy(5),
        1,
      );
    } finally {
      clearInterval(timer);
    }
    expect(ticks).toBeGreaterThanOrEqual(5);
  });

  it('writes nothing for no items', async () => {
    let calls = 0;
    await inTurns([], async () => void (calls += 1));
    expect(calls).toBe(0);
  });
});
