import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/client.js';
import { OPENING_SPREAD_MS, startWaitOf, TURN_SPREAD_MS } from './startWave.js';

describe('the start wave', () => {
  const now = 1_000_000;

  it('waits for the opening, pressing again at a moment of its own within the spread', () => {
    const error = new ApiError('exam_not_open', 409, 'not open', { opens_at: now + 60_000 });
    expect(startWaitOf(error, now, () => 0)).toEqual({ kind: 'opening', opensAt: now + 60_000, at: now + 60_000 });
    const late = startWaitOf(error, now, () => 0.999)!;
    expect(late.at).toBeGreaterThan(now + 60_000);
    expect(late.at).toBeLessThan(now + 60_000 + OPENING_SPREAD_MS);
  });

  it("waits for the queue's turn, keeping the place the server gave", () => {
    const error = new ApiError('admission_queue', 429, 'queue', { place: 120, retry_after_ms: 4_000 });
    expect(startWaitOf(error, now, () => 0)).toEqual({ kind: 'queue', place: 120, at: now + 4_000 });
    expect(startWaitOf(error, now, () => 0.5)!.at).toBe(now + 4_000 + TURN_SPREAD_MS / 2);
  });

  it('leaves every other failure to be shown as it is', () => {
    expect(startWaitOf(new ApiError('exam_not_open', 409, 'closed'), now, () => 0)).toBeNull();
    // An opening in the past is no wait: the exam has closed or the clocks disagree; the message says which.
    expect(startWaitOf(new ApiError('exam_not_open', 409, 'x', { opens_at: now - 1 }), now, () => 0)).toBeNull();
    expect(startWaitOf(new ApiError('checks_incomplete', 409, 'checks'), now, () => 0)).toBeNull();
    expect(startWaitOf(new Error('boom'), now, () => 0)).toBeNull();
  });
});
