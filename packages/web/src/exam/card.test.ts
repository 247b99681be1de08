import { describe, expect, it } from 'vitest';
import { cardItems, groupBySection, keyOf, summarize, type CardItem } from './card.js';

const order = [
  { id: 11, type: 1, order_num: 1, isAnswered: 1 as const, section: 'linetest' as const },
  { id: 12, type: 2, order_num: 2, isAnswered: 0 as const, section: 'linetest' as const },
  { id: 21, type: 4, order_num: 3, isAnswered: 0 as const, section: 'major' as const },
  { id: 22, type: 6, order_num: 4, isAnswered: 0 as const, section: 'major' as const },
];
const evaluation = [
  { id: 32, order_num: 2, isAnswered: 0 as const },
  { id: 31, order_num: 1, isAnswered: 1 as const },
];

describe('the answer card', () => {
  it('numbers questions in the order of their sections, evaluation items last in their own order', () => {
    const items = cardItems(order, evaluation);
    expect(items.map((i) => i.id)).toEqual([11, 12, 21, 22, 31, 32]);
    expect(items.map((i) => i.answeredOnServer)).toEqual([true, false, false, false, true, false]);
    expect(groupBySection(items)).toEqual([
      { section: 'linetest', first: 0, indexes: [0, 1] },
      { section: 'major', first: 2, indexes: [2, 3] },
      { section: 'evaluation', first: 4, indexes: [4, 5] },
    ]);
    expect(keyOf(items[4]!)).not.toBe(keyOf({ kind: 'subject', id: 31 }));
  });

  it('counts answered questions with the partly answered ones and lists the rest and the marked ones', () => {
    const items = cardItems(order, evaluation);
    const states: Record<number, 'answered' | 'partial' | 'unanswered'> = {
      11: 'answered',
      21: 'partial',
      31: 'answered',
    };
    const summary = summarize(
      items,
      (i: CardItem) => states[i.id] ?? 'unanswered',
      (i) => i.id === 21 || i.id === 32,
    );
    expect(summary).toEqual({ total: 6, answered: 3, partial: [2], unanswered: [1, 3, 5], marked: [2, 5] });
  });
});
