/**
 * Submissions compared with each other: ranked pairs through an inverted index of fingerprints, groups of
 * three or more, and the matched fragments of one pair.
 *
 * The score of a pair is the share of matched code of the smaller side: the fingerprints both hold over the
 * fingerprints of the side that has fewer, `|A ∩ B| / min(|A|, |B|)` (0 when either side has none, as
 * when it is only the starter code). Fingerprints are compared as sets, so reordered functions keep their
 * matches; dividing by the smaller side means code added to a copy (dead code, extra functions) does not
 * dilute it. `share_a` and `share_b` are the same count over each side's own fingerprints.
 */
import { K, type Fingerprinted } from './fingerprint.js';
import type { SimilarPair } from './rarity.js';

/** A pair of submissions at or above this score is flagged for a person to look at, and joins groups. */
export const SIMILARITY_THRESHOLD = 0.7;

/**
 * Every pair sharing at least one fingerprint, best first (ties by `a`, then `b`). Counts come from an
 * inverted index (fingerprint → submissions holding it), so the work is the sum over fingerprints of their
 * holders squared, not every pair's sets compared. Pairs scoring below `minScore` are left out.
 */
export function rankPairs(docs: readonly Pick<Fingerprinted, 'hashes'>[], minScore = 0): SimilarPair[] {
  const holders = new Map<number, number[]>();
  docs.forEach((d, i) => {
    for (const h of d.hashes) {
      const list = holders.get(h);
      if (list) list.push(i);
      else holders.set(h, [i]);
    }
  });
  const counts = new Uint32Array(docs.length);
  const touched: number[] = [];
  const pairs: SimilarPair[] = [];
  docs.forEach((d, i) => {
    for (const h of d.hashes) {
      // Holders are in index order: those after i are the tail of the list.
      const list = holders.get(h)!;
      for (let q = list.length - 1; q >= 0; q--) {
        const j = list[q]!;
        if (j <= i) break;
        if (counts[j] === 0) touched.push(j);
        counts[j]!++;
      }
    }
    for (const j of touched) {
      const matched = counts[j]!;
      counts[j] = 0;
      const sizeA = d.hashes.size;
      const sizeB = docs[j]!.hashes.size;
      const score = matched / Math.min(sizeA, sizeB);
      if (score >= minScore && score > 0) {
        pairs.push({ a: i, b: j, matched, score, share_a: matched / sizeA, share_b: matched / sizeB });
      }
    }
    touched.length = 0;
  });
  return pairs.sort((x, y) => y.score - x.score || x.a - y.a || x.b - y.b);
}

/** Three or more submissions joined by pairs at or above the threshold. */
export interface SimilarGroup {
  /** Indexes of the members, ascending. */
  members: number[];
  /** The pairs at or above the threshold inside the group. */
  pairs: number;
  /** The highest score among them. */
  max_score: number;
}

/**
 * Groups of three or more: the connected components of the graph whose edges are the pairs scoring at least
 * `threshold`. A component may be a chain (A like B, B like C, A less like C); `pairs` tells how dense it is.
 * Largest groups first.
 */
export function groups(pairs: readonly SimilarPair[], threshold = SIMILARITY_THRESHOLD): SimilarGroup[] {
  const parent = new Map<number, number>();
  const find = (x: number): number => {
    let root = x;
    while (parent.get(root) !== undefined && parent.get(root) !== root) root = parent.get(root)!;
    parent.set(x, root);
    return root;
  };
  const strong = pairs.filter((p) => p.score >= threshold);
  for (const p of strong) {
    if (!parent.has(p.a)) parent.set(p.a, p.a);
    if (!parent.has(p.b)) parent.set(p.b, p.b);
    const ra = find(p.a);
    const rb = find(p.b);
    if (ra !== rb) parent.set(Math.max(ra, rb), Math.min(ra, rb));
  }
  const byRoot = new Map<number, SimilarGroup>();
  for (const x of [...parent.keys()].sort((m, n) => m - n)) {
    const root = find(x);
    const g = byRoot.get(root) ?? { members: [], pairs: 0, max_score: 0 };
    g.members.push(x);
    byRoot.set(root, g);
  }
  for (const p of strong) {
    const g = byRoot.get(find(p.a))!;
    g.pairs++;
    g.max_score = Math.max(g.max_score, p.score);
  }
  return [...byRoot.values()]
    .filter((g) => g.members.length >= 3)
    .sort((x, y) => y.members.length - x.members.length || x.members[0]! - y.members[0]!);
}

/** A stretch of source: 1-based lines and columns, the end inclusive. */
export interface SourceRange {
  start_line: number;
  start_col: number;
  end_line: number;
  end_col: number;
}

/** One stretch of identical normalized tokens in both submissions. */
export interface Fragment {
  a: SourceRange;
  b: SourceRange;
  /** Tokens in the stretch. */
  tokens: number;
}

/** A fingerprint found more often than this on either side seeds no fragment (a line repeated over and over). */
export const FRAGMENT_SEED_REPEATS = 64;
/** Most seed pairs a pair view looks at. */
export const FRAGMENT_SEEDS = 200_000;
/** Most token comparisons a pair view makes growing stretches. */
export const FRAGMENT_STEPS = 5_000_000;

/**
 * The matched fragments of a pair, rarest first when `holders` tells how many of the question's submissions hold
 * each fingerprint (a fragment is as rare as the rarest fingerprint it holds on a's side; a fingerprint not listed
 * counts as held by this pair alone; ties longest first), otherwise in the order they stand in `a`. Each shared
 * fingerprint is a seed; a seed
 * whose k-grams are really equal grows both ways while the normalized tokens stay equal and outside the
 * starter code. Longest stretches are taken first; of a later stretch only the parts not taken on either side
 * are kept (each at least K tokens), so every token of either side belongs to at most one fragment. The work is
 * bounded whatever the code (FRAGMENT_SEEDS, FRAGMENT_STEPS): past it, the stretches grown so far are shown.
 */
export function fragments(a: Fingerprinted, b: Fingerprinted, holders?: ReadonlyMap<number, number>): Fragment[] {
  const ta = a.tokens;
  const tb = b.tokens;
  const same = (i: number, j: number) =>
    i >= 0 && j >= 0 && i < ta.length && j < tb.length && ta[i]!.text === tb[j]!.text && !a.starter[i] && !b.starter[j];
  // Seeds: the positions of a fingerprint both sides share. One repeated many times (a line written thousands of
  // times) would pair every occurrence with every other: such a fingerprint marks nothing a reader could follow,
  // and is no seed. The seeds kept are bounded too, so the work is, whatever the code.
  const seeds: [number, number][] = [];
  for (const [h, inA] of a.positions) {
    const inB = b.positions.get(h);
    if (!inB || inA.length > FRAGMENT_SEED_REPEATS || inB.length > FRAGMENT_SEED_REPEATS) continue;
    for (const pa of inA) for (const pb of inB) if (seeds.length < FRAGMENT_SEEDS) seeds.push([pa, pb]);
  }
  // In `a`'s order, a seed inside a stretch already grown on its diagonal (pa - pb) adds nothing: each token pair
  // is compared about once per diagonal, so growing stretches costs the tokens they cover, not that per seed.
  seeds.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  const grownTo = new Map<number, number>();
  let budget = FRAGMENT_STEPS;
  const found: { a0: number; a1: number; b0: number; b1: number }[] = [];
  for (const [pa, pb] of seeds) {
    if (budget <= 0) break;
    const diagonal = pa - pb;
    if ((grownTo.get(diagonal) ?? -1) >= pa) continue;
    let ok = true;
    for (let q = 0; q < K && ok; q++) ok = same(pa + q, pb + q);
    budget -= K;
    if (!ok) continue;
    let s = 0;
    while (same(pa - s - 1, pb - s - 1)) s++;
    let e = K - 1;
    while (same(pa + e + 1, pb + e + 1)) e++;
    budget -= s + e;
    grownTo.set(diagonal, pa + e);
    found.push({ a0: pa - s, a1: pa + e, b0: pb - s, b1: pb + e });
  }
  found.sort((x, y) => y.a1 - y.a0 - (x.a1 - x.a0) || x.a0 - y.a0);
  const usedA = new Uint8Array(ta.length);
  const usedB = new Uint8Array(tb.length);
  const taken: typeof found = [];
  for (const f of found) {
    // The parts of the stretch not taken on either side, each kept when still K tokens long.
    let start = -1;
    for (let o = 0; o <= f.a1 - f.a0 + 1; o++) {
      const free = o <= f.a1 - f.a0 && !usedA[f.a0 + o] && !usedB[f.b0 + o];
      if (free && start < 0) start = o;
      if (!free && start >= 0) {
        if (o - start >= K) {
          usedA.fill(1, f.a0 + start, f.a0 + o);
          usedB.fill(1, f.b0 + start, f.b0 + o);
          taken.push({ a0: f.a0 + start, a1: f.a0 + o - 1, b0: f.b0 + start, b1: f.b0 + o - 1 });
        }
        start = -1;
      }
    }
  }
  const range = (tokens: typeof ta, from: number, to: number): SourceRange => ({
    start_line: tokens[from]!.line,
    start_col: tokens[from]!.col,
    end_line: tokens[to]!.endLine,
    end_col: tokens[to]!.endCol,
  });
  taken.sort((x, y) => x.a0 - y.a0);
  if (holders) {
    // Each fragment's rarest fingerprint on a's side: the fewest submissions holding one that starts inside it.
    const owner = new Int32Array(ta.length).fill(-1);
    taken.forEach((f, i) => owner.fill(i, f.a0, f.a1 + 1));
    const rarest = new Array<number>(taken.length).fill(Infinity);
    for (const [h, starts] of a.positions) {
      if (!b.hashes.has(h)) continue;
      const count = holders.get(h) ?? 2;
      for (const p of starts) {
        const i = owner[p]!;
        if (i >= 0 && count < rarest[i]!) rarest[i] = count;
      }
    }
    const order = taken.map((_, i) => i);
    order.sort((x, y) => {
      const [fx, fy] = [taken[x]!, taken[y]!];
      return rarest[x]! - rarest[y]! || fy.a1 - fy.a0 - (fx.a1 - fx.a0) || fx.a0 - fy.a0;
    });
    return order.map((i) => {
      const f = taken[i]!;
      return { a: range(ta, f.a0, f.a1), b: range(tb, f.b0, f.b1), tokens: f.a1 - f.a0 + 1 };
    });
  }
  return taken.map((f) => ({ a: range(ta, f.a0, f.a1), b: range(tb, f.b0, f.b1), tokens: f.a1 - f.a0 + 1 }));
}
