import { describe, expect, it } from 'vitest';
import { serverTime } from './serverTime.js';

describe('serverTime', () => {
  it("writes a time on the server's clock (UTC+8), whatever this machine's zone", () => {
    expect(serverTime(Date.UTC(2026, 0, 31, 16, 5))).toBe('2026-02-01 00:05');
    expect(serverTime(Date.UTC(2025, 11, 31, 15, 59, 59))).toBe('2025-12-31 23:59');
  });
});
