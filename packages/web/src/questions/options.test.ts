import { describe, expect, it } from 'vitest';
import {
  addOption,
  canAddOption,
  dropOption,
  markRight,
  moveOption,
  removeOption,
  reorderOptions,
  type OptionState,
} from './options.js';

const opts = (...texts: string[]) => texts.map((content, i) => ({ id: String.fromCharCode(65 + i), content }));

describe('removing an option', () => {
  it('re-letters the options after it and moves the key with them', () => {
    const state: OptionState = { options: opts('a', 'b', 'c', 'd'), key: { option: 'C' } };
    const next = removeOption(state, 'B');
    expect(next.options).toEqual([
      { id: 'A', content: 'a' },
      { id: 'B', content: 'c' },
      { id: 'C', content: 'd' },
    ]);
    expect(next.key).toEqual({ option: 'B' });
  });

  it('leaves a one-pick key without an answer when the right option goes', () => {
    const next = removeOption({ options: opts('a', 'b', 'c'), key: { option: 'B' } }, 'B');
    expect(next.key).toEqual({});
    expect('option' in next.key).toBe(false);
  });

  it('drops a removed option from a several-picks key and re-letters the rest', () => {
    const next = removeOption({ options: opts('a', 'b', 'c', 'd'), key: { options: ['A', 'B', 'D'] } }, 'B');
    expect(next.key).toEqual({ options: ['A', 'C'] });
  });

  it('keeps the points of the other options under their new letters', () => {
    const next = removeOption({ options: opts('a', 'b', 'c'), key: { scores: { A: 5, B: 3, C: 1 } } }, 'A');
    expect(next.options.map((o) => o.content)).toEqual(['b', 'c']);
    expect(next.key).toEqual({ scores: { A: 3, B: 1 } });
  });

  it('keeps other key fields as they are', () => {
    const next = removeOption(
      { options: opts('a', 'b'), key: { option: 'B', extra: 1 } as { option: string; extra: number } },
      'A',
    );
    expect(next.key).toEqual({ option: 'A', extra: 1 });
  });
});

describe('moving an option', () => {
  it('swaps with its neighbour, letters follow the positions and the key follows the text', () => {
    const state: OptionState = { options: opts('a', 'b', 'c'), key: { option: 'B', options: ['B', 'C'] } };
    const up = moveOption(state, 'B', -1);
    expect(up.options).toEqual([
      { id: 'A', content: 'b' },
      { id: 'B', content: 'a' },
      { id: 'C', content: 'c' },
    ]);
    expect(up.key).toEqual({ option: 'A', options: ['A', 'C'] });
    const down = moveOption(state, 'A', 1);
    expect(down.options.map((o) => o.content)).toEqual(['b', 'a', 'c']);
    expect(down.key).toEqual({ option: 'A', options: ['A', 'C'] });
  });

  it('changes nothing past either end', () => {
    const state: OptionState = { options: opts('a', 'b'), key: { option: 'A' } };
    expect(moveOption(state, 'A', -1)).toBe(state);
    expect(moveOption(state, 'B', 1)).toBe(state);
    expect(moveOption(state, 'Z', 1)).toBe(state);
  });

  it('by drag and drop lands on the target position', () => {
    const state: OptionState = { options: opts('a', 'b', 'c', 'd'), key: { scores: { A: 1, B: 2, C: 3, D: 4 } } };
    const next = dropOption(state, 'D', 'A');
    expect(next.options.map((o) => o.content)).toEqual(['d', 'a', 'b', 'c']);
    expect(next.key).toEqual({ scores: { A: 4, B: 1, C: 2, D: 3 } });
    expect(dropOption(state, 'B', 'B')).toBe(state);
  });

  it('a full reorder keeps each text with its key entry', () => {
    const state: OptionState = { options: opts('a', 'b', 'c'), key: { options: ['A', 'C'] } };
    const next = reorderOptions(state, ['C', 'A', 'B']);
    const right = next.options.filter((o) => next.key.options!.includes(o.id)).map((o) => o.content);
    expect(right.sort()).toEqual(['a', 'c']);
    expect(next.key.options).toEqual(['A', 'B']);
  });
});

describe('adding and marking', () => {
  it('adds an empty option with the next letter, with 0 points when the key gives points', () => {
    const next = addOption({ options: opts('a', 'b'), key: { scores: { A: 2, B: 1 } } });
    expect(next.options[2]).toEqual({ id: 'C', content: '' });
    expect(next.key.scores).toEqual({ A: 2, B: 1, C: 0 });
    expect(addOption({ options: opts('a'), key: { option: 'A' } }).key).toEqual({ option: 'A' });
  });

  it('stops at eight options', () => {
    const full: OptionState = { options: opts('1', '2', '3', '4', '5', '6', '7', '8'), key: {} };
    expect(canAddOption(full)).toBe(false);
    expect(addOption(full)).toBe(full);
  });

  it('marks one right option, or several in option order', () => {
    const state: OptionState = { options: opts('a', 'b', 'c'), key: {} };
    expect(markRight(state, 'B', true, false).key).toEqual({ option: 'B' });
    const many = markRight(markRight({ ...state, key: { options: [] } }, 'C', true, true), 'A', true, true);
    expect(many.key.options).toEqual(['A', 'C']);
    expect(markRight(many, 'C', false, true).key.options).toEqual(['A']);
  });
});
