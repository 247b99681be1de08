/**
 * Item analysis of an exam's scored questions from the points each attempt got on each: per question its
 * facility, standard deviation, discrimination (the item-rest correlation and the upper-lower 27 % index) and
 * the share choosing each option; per exam Cronbach's alpha. The definitions, stated once here, are the ones the
 * console shows beside the numbers.
 *
 * - facility (难度 P): mean points / the question's points, 0..1 (higher is easier);
 * - standard deviation: of the points, the sample one (divides by n - 1);
 * - item-rest correlation: Pearson's r between the points on the question and the total on the other questions
 *   the attempt was given (the question left out, so it does not correlate with itself);
 * - upper-lower index (区分度 D): attempts ranked by total (ties by attempt id), the top and bottom 27 % (at
 *   least one each); the mean points of the upper group minus the lower's, over the question's points, -1..1;
 * - Cronbach's alpha: k / (k - 1) × (1 - Σ item variances / variance of totals), sample variances, over the
 *   attempts that were given every question (random draws leave others out).
 *
 * A figure that is undefined for the data (no attempts, no spread) is null, never NaN. A question whose
 * discrimination is negative (either index) is flagged: stronger candidates did worse on it than weaker ones.
 */

/** One scored question of the exam. */
export interface AnalysedItem {
  id: number;
  /** The question's points. */
  max: number;
  /** Option ids of a choice question in their order; absent for other kinds. */
  options?: readonly string[];
}

/** What an attempt got on one question: its points and, for a choice question, the option ids chosen. */
export interface ItemResponse {
  points: number;
  chosen?: readonly string[];
}

/** One attempt: a response per item in the items' order, null where the question was not given (draws). */
export interface AnalysedAttempt {
  id: number;
  responses: readonly (ItemResponse | null)[];
}

/** The figures of one question. */
export interface ItemFigures {
  id: number;
  /** Attempts that were given it. */
  n: number;
  mean: number | null;
  facility: number | null;
  sd: number | null;
  itemRest: number | null;
  upperLower: number | null;
  /** Share of the attempts given the question that chose each option; '' is no answer. Choice questions only. */
  optionShares: Record<string, number> | null;
  /** Negative discrimination by either index. */
  flagged: boolean;
}

/** The figures of the exam as a whole. */
export interface ExamFigures {
  /** Attempts analysed. */
  n: number;
  /** Questions analysed. */
  k: number;
  meanTotal: number | null;
  sdTotal: number | null;
  /** Over the attempts given every question; null with fewer than two questions or two such attempts. */
  alpha: number | null;
  /** Attempts the alpha is computed over. */
  alphaN: number;
}

/** The share of each end of the ranking the upper-lower index compares. */
export const UPPER_LOWER_SHARE = 0.27;

/** Numbers as the figures read them: a plain array or a typed one. */
type Numbers = ArrayLike<number>;

function mean(xs: Numbers): number | null {
  if (xs.length === 0) return null;
  let sum = 0;
  for (let i = 0; i < xs.length; i++) sum += xs[i]!;
  return sum / xs.length;
}

/** The sample variance (n - 1), null under two values. */
function variance(xs: Numbers): number | null {
  const m = mean(xs);
  if (m === null || xs.length < 2) return null;
  let sum = 0;
  for (let i = 0; i < xs.length; i++) sum += (xs[i]! - m) ** 2;
  return sum / (xs.length - 1);
}

/** Pearson's r, null when either side has no spread. */
function pearson(xs: Numbers, ys: Numbers): number | null {
  const mx = mean(xs);
  const my = mean(ys);
  if (mx === null || my === null || xs.length < 2) return null;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < xs.length; i++) {
    const dx = xs[i]! - mx;
    const dy = ys[i]! - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  return sxx === 0 || syy === 0 ? null : sxy / Math.sqrt(sxx * syy);
}

/** An attempt's total over the questions it was given. */
function totalOf(a: AnalysedAttempt): number {
  return a.responses.reduce((sum, r) => sum + (r?.points ?? 0), 0);
}

/** The attempts with their totals over the questions each was given, ranked by total (ties by attempt id). */
interface Ranked {
  attempt: AnalysedAttempt;
  total: number;
}

/**
 * The figures of the item at `index`; `ranked` holds every attempt, ranked. One pass over the ranking into typed
 * arrays: with 50,000 attempts and 40 questions the analysis is 40 such passes.
 */
function itemFigures(item: AnalysedItem, index: number, ranked: readonly Ranked[]): ItemFigures {
  // The groups are taken among the attempts given this question, in the ranking's order.
  const points = new Float64Array(ranked.length);
  const rest = new Float64Array(ranked.length);
  let n = 0;
  let counts: Record<string, number> | null = item.options
    ? Object.fromEntries([...item.options, ''].map((o) => [o, 0]))
    : null;
  for (const r of ranked) {
    const response = r.attempt.responses[index];
    if (!response) continue;
    points[n] = response.points;
    rest[n] = r.total - response.points;
    n += 1;
    if (counts) {
      const chosen = response.chosen ?? [];
      if (chosen.length === 0) counts['']!++;
      for (const o of chosen) if (o in counts) counts[o]!++;
    }
  }
  const given = points.subarray(0, n);
  const m = mean(given);
  const v = variance(given);
  const itemRest = pearson(given, rest.subarray(0, n));
  const g = Math.max(1, Math.round(n * UPPER_LOWER_SHARE));
  const upperLower =
    n >= 2 && item.max > 0 ? (mean(given.subarray(0, g))! - mean(given.subarray(n - g))!) / item.max : null;
  if (n === 0) counts = null;
  return {
    id: item.id,
    n,
    mean: m,
    facility: m === null || item.max <= 0 ? null : m / item.max,
    sd: v === null ? null : Math.sqrt(v),
    itemRest,
    upperLower,
    optionShares: counts && Object.fromEntries(Object.entries(counts).map(([o, c]) => [o, c / n])),
    flagged: (itemRest !== null && itemRest < 0) || (upperLower !== null && upperLower < 0),
  };
}

/** The item analysis of `items` over `attempts` (each attempt's responses in the items' order). */
export function analyseItems(
  items: readonly AnalysedItem[],
  attempts: readonly AnalysedAttempt[],
): { items: ItemFigures[]; exam: ExamFigures } {
  const ranked = attempts
    .map((attempt) => ({ attempt, total: totalOf(attempt) }))
    .sort((a, b) => b.total - a.total || a.attempt.id - b.attempt.id);
  const totals = ranked.map((r) => r.total);
  const vTotal = variance(totals);
  const complete = attempts.filter((a) => items.every((_, i) => a.responses[i]));
  const k = items.length;
  let alpha: number | null = null;
  if (k >= 2 && complete.length >= 2) {
    const itemVars = items.map((_, i) => variance(complete.map((a) => a.responses[i]!.points))!);
    const completeVar = variance(complete.map(totalOf))!;
    if (completeVar > 0) alpha = (k / (k - 1)) * (1 - itemVars.reduce((a, b) => a + b, 0) / completeVar);
  }
  return {
    items: items.map((item, i) => itemFigures(item, i, ranked)),
    exam: {
      n: attempts.length,
      k,
      meanTotal: mean(totals),
      sdTotal: vTotal === null ? null : Math.sqrt(vTotal),
      alpha,
      alphaN: complete.length,
    },
  };
}
