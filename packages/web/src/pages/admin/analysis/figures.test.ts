import { describe, expect, it } from 'vitest';
import { alphaBand, figure, percent } from './figures.js';

describe('item analysis figures', () => {
  it('writes two decimals, a dash for undefined, and whole percentages', () => {
    expect(figure(-0.84852)).toBe('-0.85');
    expect(figure(null)).toBe('—');
    expect(percent(0.125)).toBe('13%');
    expect(percent(1 / 3)).toBe('33%');
  });

  it('bands alpha by the usual rule of thumb', () => {
    expect([0.91, 0.8, 0.75, 0.7, 0.69, -0.36].map(alphaBand)).toEqual(['good', 'good', 'fair', 'fair', 'low', 'low']);
  });
});
