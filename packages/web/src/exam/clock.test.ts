import { describe, expect, it } from 'vitest';
import { alignFrom, crossedMilestone, formatDuration, serverNowOf } from './clock.js';

describe('server clock', () => {
  it('adds half the round trip and then follows the monotonic clock, whatever the wall clock says', () => {
    const clock = alignFrom(1_700_000_000_000, 1_000, 1_200);
    expect(clock.serverMs).toBe(1_700_000_000_100);
    expect(serverNowOf(clock, 61_200)).toBe(1_700_000_060_100);
  });

  it('formats durations', () => {
    expect(formatDuration(59_001)).toBe('01:00');
    expect(formatDuration(3_600_000)).toBe('01:00:00');
    expect(formatDuration(3_599_000)).toBe('59:59');
    expect(formatDuration(0)).toBe('00:00');
  });

  it('speaks at 30, 15, 5 and 1 minutes left, once each', () => {
    expect(crossedMilestone(30 * 60_000 + 500, 30 * 60_000 - 500)).toBe(30);
    expect(crossedMilestone(30 * 60_000 - 500, 30 * 60_000 - 1500)).toBeNull();
    expect(crossedMilestone(61_000, 60_000)).toBe(1);
    expect(crossedMilestone(null, 60_000)).toBeNull();
    expect(crossedMilestone(16 * 60_000, 14 * 60_000)).toBe(15);
  });
});
