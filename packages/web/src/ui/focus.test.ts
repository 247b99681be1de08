import { describe, expect, it } from 'vitest';
import { wrapTab } from './focus.js';

describe('wrapTab (Tab kept inside a dialog)', () => {
  it('goes from the last stop to the first, and from the first back to the last', () => {
    expect(wrapTab(3, 2, false)).toBe(0);
    expect(wrapTab(3, 0, true)).toBe(2);
  });

  it("leaves the browser's move alone between the edges", () => {
    expect(wrapTab(3, 0, false)).toBeNull();
    expect(wrapTab(3, 1, false)).toBeNull();
    expect(wrapTab(3, 2, true)).toBeNull();
  });

  it('enters the stops from the dialog itself (nothing focused inside)', () => {
    expect(wrapTab(3, -1, false)).toBe(0);
    expect(wrapTab(3, -1, true)).toBe(2);
  });

  it('has nowhere to go in a dialog without stops', () => {
    expect(wrapTab(0, -1, false)).toBeNull();
    expect(wrapTab(0, -1, true)).toBeNull();
  });
});
