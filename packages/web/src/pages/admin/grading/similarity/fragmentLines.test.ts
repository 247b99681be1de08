import { describe, expect, it } from 'vitest';
import { fragmentColour, fragmentLines } from './fragmentLines.js';

const range = (start_line: number, end_line: number) => ({ start_line, start_col: 1, end_line, end_col: 1 });

describe('fragmentLines', () => {
  const fragments = [
    { a: range(3, 5), b: range(10, 12), tokens: 20 },
    { a: range(5, 7), b: range(1, 3), tokens: 15 },
  ];

  it('maps each covered line to its fragment, the first fragment keeping a line two share', () => {
    expect([...fragmentLines(fragments, 'a')]).toEqual([
      [3, 0],
      [4, 0],
      [5, 0],
      [6, 1],
      [7, 1],
    ]);
    expect(fragmentLines(fragments, 'b').get(11)).toBe(0);
    expect(fragmentLines(fragments, 'b').get(2)).toBe(1);
    expect(fragmentLines(fragments, 'b').has(5)).toBe(false);
  });

  it('gives a fragment the same colour on both sides, cycling through the palette', () => {
    expect(fragmentColour(0)).toBe(fragmentColour(6));
    expect(fragmentColour(0)).not.toBe(fragmentColour(1));
  });
});
