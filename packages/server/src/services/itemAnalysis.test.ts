import { describe, expect, it } from 'vitest';
import { ITEM_POINTS, Q1_CHOSE, Q4_CHOSE } from '../test/itemFixture.js';
import { analyseItems, type AnalysedAttempt, type AnalysedItem } from './itemAnalysis.js';

/**
 * Ten attempts at four questions (points 1, 1, 2, 1). Q1 is a single choice with key A; Q4 a single choice with
 * key B that the weakest candidates get right. Points per attempt (total):
 *
 *   id  Q1 Q2 Q3 Q4  total   Q1 chose  Q4 chose
 *    1   1  1  2  0    4       A         A
 *    2   1  1  2  0    4       A         C
 *    3   1  0  2  0    3       A         A
 *    4   1  1  1  0    3       A         -
 *    5   0  1  1  1    3       B         B
 *    6   1  0  1  0    2       A         A
 *    7   0  0  1  1    2       C         B
 *    8   1  0  0  1    2       A         B
 *    9   0  0  0  1    1       -         B
 *   10   0  0  0  1    1       B         B
 */
const POINTS = ITEM_POINTS;
const ITEMS: AnalysedItem[] = [
  { id: 101, max: 1, options: ['A', 'B', 'C'] },
  { id: 102, max: 1 },
  { id: 103, max: 2 },
  { id: 104, max: 1, options: ['A', 'B', 'C'] },
];
const chosen = (o: string) => (o ? [o] : []);
const ATTEMPTS: AnalysedAttempt[] = POINTS.map((p, i) => ({
  id: i + 1,
  responses: [
    { points: p[0]!, chosen: chosen(Q1_CHOSE[i]!) },
    { points: p[1]! },
    { points: p[2]! },
    { points: p[3]!, chosen: chosen(Q4_CHOSE[i]!) },
  ],
}));

describe('item analysis', () => {
  const { items, exam } = analyseItems(ITEMS, ATTEMPTS);
  const [q1, q2, q3, q4] = items;

  it('facility: mean points over the points', () => {
    // Q1 6/10; Q2 4/10; Q3 10/10 = 1.0 of 2; Q4 5/10.
    expect(items.map((q) => q.facility)).toEqual([0.6, 0.4, 0.5, 0.5]);
    expect(q3!.mean).toBe(1);
  });

  it('standard deviation: the sample one', () => {
    // Q1: 6 ones, mean .6: Σ(x-m)² = 6·.16 + 4·.36 = 2.4, /9 → √.2667 = .5164. Q2 the same by symmetry.
    expect(q1!.sd).toBeCloseTo(Math.sqrt(2.4 / 9), 10);
    expect(q2!.sd).toBeCloseTo(Math.sqrt(2.4 / 9), 10);
    // Q3: 2,2,2,1,1,1,1,0,0,0, mean 1: Σ = 3 + 0 + 3 = 6, /9 → √.6667 = .8165.
    expect(q3!.sd).toBeCloseTo(Math.sqrt(6 / 9), 10);
    // Q4: 5 ones: Σ = 10·.25 = 2.5, /9 → .5270.
    expect(q4!.sd).toBeCloseTo(Math.sqrt(2.5 / 9), 10);
  });

  it('item-rest correlation: Pearson against the total of the other questions', () => {
    // Q1 against rest (3,3,2,2,3,1,2,1,1,1; mean 1.9): Σdxdy = .6, Σdx² = 2.4, Σdy² = 6.9 → .6 / √16.56 = .1474.
    expect(q1!.itemRest).toBeCloseTo(0.6 / Math.sqrt(2.4 * 6.9), 10);
    expect(q1!.itemRest).toBeCloseTo(0.1474, 3);
    expect(q2!.itemRest).toBeCloseTo(0.4666, 3);
    expect(q3!.itemRest).toBeCloseTo(0.2582, 3);
    // Q4: the weak get it right.
    expect(q4!.itemRest).toBeCloseTo(-0.8485, 3);
  });

  it('upper-lower index: the top and bottom 27 % by total (3 of 10, ties by id)', () => {
    // Upper: attempts 1, 2, 3 (totals 4, 4, 3; 4 and 5 tie with 3 and come after it); lower: 8, 9, 10.
    // Q1: (1+1+1)/3 - (1+0+0)/3 = 2/3. Q2: 2/3 - 0. Q3: (2+2+2)/3 - 0 = 2, over 2 points = 1. Q4: 0 - 1 = -1.
    expect(q1!.upperLower).toBeCloseTo(2 / 3, 10);
    expect(q2!.upperLower).toBeCloseTo(2 / 3, 10);
    expect(q3!.upperLower).toBeCloseTo(1, 10);
    expect(q4!.upperLower).toBeCloseTo(-1, 10);
  });

  it('option shares, no answer as its own share', () => {
    expect(q1!.optionShares).toEqual({ A: 0.6, B: 0.2, C: 0.1, '': 0.1 });
    expect(q4!.optionShares).toEqual({ A: 0.3, B: 0.5, C: 0.1, '': 0.1 });
    expect(q2!.optionShares).toBeNull();
  });

  it('flags the question with negative discrimination only', () => {
    expect(items.map((q) => q.flagged)).toEqual([false, false, false, true]);
  });

  it("Cronbach's alpha: k/(k-1) · (1 - Σ item variances / variance of totals)", () => {
    // Item variances 2.4/9, 2.4/9, 6/9, 2.5/9 = 13.3/9; totals 4,4,3,3,3,2,2,2,1,1, mean 2.5, Σ = 10.5 → 10.5/9.
    // alpha = 4/3 · (1 - 13.3/10.5) = -0.3556: these four questions do not measure one thing.
    expect(exam.alpha).toBeCloseTo((4 / 3) * (1 - 13.3 / 10.5), 10);
    expect(exam).toMatchObject({ n: 10, k: 4, meanTotal: 2.5, alphaN: 10 });
    expect(exam.sdTotal).toBeCloseTo(Math.sqrt(10.5 / 9), 10);
  });

  it('leaves attempts not given a drawn question out of its figures and of alpha, and answers null, never NaN', () => {
    const drawn: AnalysedAttempt[] = [
      ...ATTEMPTS,
      { id: 11, responses: [{ points: 1, chosen: ['A'] }, null, { points: 2 }, { points: 0, chosen: ['C'] }] },
    ];
    const out = analyseItems(ITEMS, drawn);
    expect(out.items[1]!.n).toBe(10);
    expect(out.items[0]!.n).toBe(11);
    expect(out.exam).toMatchObject({ n: 11, alphaN: 10 });
    expect(out.exam.alpha).toBeCloseTo(exam.alpha!, 10);

    const flat = analyseItems(
      [{ id: 1, max: 1 }],
      [
        { id: 1, responses: [{ points: 1 }] },
        { id: 2, responses: [{ points: 1 }] },
      ],
    );
    expect(flat.items[0]).toMatchObject({ facility: 1, sd: 0, itemRest: null, upperLower: 0, flagged: false });
    expect(flat.exam.alpha).toBeNull();
    const empty = analyseItems(ITEMS, []);
    expect(empty.items[0]).toMatchObject({ n: 0, mean: null, facility: null, sd: null, itemRest: null });
    expect(empty.exam).toMatchObject({ n: 0, meanTotal: null, sdTotal: null, alpha: null });
  });
});
