/**
 * Pairs of submissions scored by what they share, each shared feature weighed by how rare it is among all the
 * submissions to the question, as inverse document frequency does in retrieval: what every candidate writes (the
 * `main`, reading the input, the loop the exercise calls for) weighs almost nothing, and a feature only two
 * candidates hold weighs most.
 *
 * Each submission is a vector of its features' counts times `idf = log((N + 1) / df)` (a feature held by `df` of
 * the `N` submissions). The score of a pair is the square root of their dot product (each feature counted as often
 * as the side holding it fewer times has it) over the lighter side's squared norm: 1 when the lighter side is all
 * in the other, whatever code was added to the other (dead code does not dilute a copy). The lighter side's squared
 * norm is taken as at least `MIN_EVIDENCE` features held by two submissions, so a submission with almost nothing
 * of its own (the starter code, an empty `main`) does not score 1 against everyone it is contained in. The square
 * root puts the score on the scale graders read (`SIMILARITY_STORED_SCORE`, `SIMILARITY_FLAG_SCORE`).
 */

/** One submission's features: feature → occurrences. */
export type Bag = ReadonlyMap<number, number>;

/** The least weight a score divides by: that of this many features held by two submissions. */
export const MIN_EVIDENCE = 3;

/** Two submissions (indexes into the compared list, `a < b`) and how much they share. */
export interface SimilarPair {
  a: number;
  b: number;
  /** Features both hold (occurrences counted). */
  matched: number;
  /** The square root of the weight both hold over the lighter side's, 0..1. */
  score: number;
  /** The same over each side's own weight. */
  share_a: number;
  share_b: number;
}

/** How many submissions hold each feature. */
export function documentFrequencies(bags: readonly Bag[]): Map<number, number> {
  const df = new Map<number, number>();
  for (const bag of bags) for (const f of bag.keys()) df.set(f, (df.get(f) ?? 0) + 1);
  return df;
}

/** The weight of a feature held by `df` of `n` submissions in a dot product: its idf squared. */
export const rarity = (df: number, n: number) => Math.log((n + 1) / Math.max(1, df)) ** 2;

/**
 * Every pair scoring above 0 and at least `minScore`, best first (ties by `a`, then `b`). An inverted index
 * (feature → holders) does the counting, so the work is the sum over features of their holders squared, not every
 * pair's bags compared; features and holders are numbered once into typed arrays.
 */
export function rankWeighted(bags: readonly Bag[], minScore = 0, df = documentFrequencies(bags)): SimilarPair[] {
  const n = bags.length;
  const floor = MIN_EVIDENCE * rarity(2, n);
  // Features numbered, each with its weight and its holders (in index order) with their counts.
  const ids = new Map<number, number>();
  const weights: number[] = [];
  const starts: number[] = [];
  let size = 0;
  for (const [f, count] of df) {
    ids.set(f, weights.length);
    weights.push(rarity(count, n));
    starts.push(size);
    size += count;
  }
  starts.push(size);
  const holderDoc = new Uint32Array(size);
  const holderCount = new Uint32Array(size);
  const filled = new Uint32Array(weights.length);
  const docFeatures: Uint32Array[] = [];
  const docCounts: Uint32Array[] = [];
  const totals = new Float64Array(n);
  bags.forEach((bag, i) => {
    const fs = new Uint32Array(bag.size);
    const cs = new Uint32Array(bag.size);
    let k = 0;
    let total = 0;
    for (const [f, c] of bag) {
      const id = ids.get(f)!;
      fs[k] = id;
      cs[k++] = c;
      total += weights[id]! * c;
      const at = starts[id]! + filled[id]!++;
      holderDoc[at] = i;
      holderCount[at] = c;
    }
    docFeatures.push(fs);
    docCounts.push(cs);
    totals[i] = total;
  });
  const shared = new Float64Array(n);
  const matched = new Uint32Array(n);
  const touched: number[] = [];
  const pairs: SimilarPair[] = [];
  const scoreOf = (s: number, total: number) => Math.sqrt(Math.min(1, s / Math.max(floor, total)));
  for (let i = 0; i < n; i++) {
    const fs = docFeatures[i]!;
    const cs = docCounts[i]!;
    for (let k = 0; k < fs.length; k++) {
      const id = fs[k]!;
      const w = weights[id]!;
      const c = cs[k]!;
      for (let q = starts[id + 1]! - 1; q >= starts[id]!; q--) {
        const j = holderDoc[q]!;
        if (j <= i) break;
        const both = Math.min(c, holderCount[q]!);
        if (matched[j] === 0) touched.push(j);
        matched[j]! += both;
        shared[j]! += w * both;
      }
    }
    for (const j of touched) {
      const s = shared[j]!;
      const m = matched[j]!;
      shared[j] = 0;
      matched[j] = 0;
      const score = scoreOf(s, Math.min(totals[i]!, totals[j]!));
      if (score > 0 && score >= minScore) {
        pairs.push({ a: i, b: j, matched: m, score, share_a: scoreOf(s, totals[i]!), share_b: scoreOf(s, totals[j]!) });
      }
    }
    touched.length = 0;
  }
  return pairs.sort((x, y) => y.score - x.score || x.a - y.a || x.b - y.b);
}
