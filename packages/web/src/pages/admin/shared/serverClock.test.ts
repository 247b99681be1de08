import { describe, expect, it } from 'vitest';
import { fromPicker, toPicker } from './serverClock.js';

describe('pickers on the server clock', () => {
  it("show epoch ms as the server's wall clock and read it back, whatever the browser's zone", () => {
    // 2025-06-01 09:30:00 in UTC+8 (the tests run in America/New_York).
    const ms = Date.UTC(2025, 5, 1, 1, 30, 0);
    const picked = toPicker(ms);
    expect(picked?.format('YYYY-MM-DD HH:mm')).toBe('2025-06-01 09:30');
    expect(fromPicker(picked)).toBe(ms);
    expect(toPicker(null)).toBeNull();
    expect(fromPicker(null)).toBeNull();
  });
});
