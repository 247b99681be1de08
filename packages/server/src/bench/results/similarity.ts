/**
 * Code similarity for 1,000 submissions to one programming question (BENCH_SUBMISSIONS): fingerprinting, the
 * pairs ranked through the inverted index and the groups, then the fragments of the top pairs; beside it, in the
 * same run, the trivial baseline that intersects the fingerprint sets of every pair, checked to find the same pairs.
 *
 * The submissions are variations of the C++ samples (three solutions written independently): about a third
 * are light copies (comments, layout, a statement added or moved), the rest own work that departs from its base
 * on many lines, so there are real matches among much that only looks alike.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  fingerprint,
  fragments,
  groups,
  rankPairs,
  SIMILARITY_THRESHOLD,
  starterHashes,
  type Fingerprinted,
  type SimilarGroup,
  type SimilarPair,
} from '../../similarity/index.js';
import { random } from '../resultsSeed.js';
import type { ResultsSection } from './section.js';

const SUBMISSIONS = Number(process.env.BENCH_SUBMISSIONS ?? 1000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const TOP_FRAGMENTS = 100;

/** The samples live beside the module's sources (the bench runs from the built copy in dist/). */
const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../src/similarity/fixtures/cpp');
const BASES = ['original.cpp', 'independent.cpp', 'same_idea.cpp'];

/** Statements a candidate might add: different token shapes, so added lines make fingerprints of their own. */
const EXTRA = [
  (n: number) => `    int tmp${n} = ${n} * 3;`,
  (n: number) => `    if (tmp > ${n}) tmp -= ${n};`,
  (n: number) => `    for (int z = 0; z < ${n}; ++z) acc[z % 4] += z;`,
  (n: number) => `    while (guard${n} > 0 && flag) { guard${n}--; }`,
  (n: number) => `    std::vector<long long> buf${n}(${n}, 0);`,
  (n: number) => `    assert(size >= 0 || ${n} == 0);`,
  (n: number) => `    // step ${n}`,
  (n: number) => `    cerr << "debug " << ${n} << endl;`,
];

/** One submission: its base with each line, at the given rate, dropped, moved, or preceded by a new statement. */
function vary(base: string, rate: number, next: () => number): string {
  const lines = base.split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const r = next();
    if (r >= rate) out.push(line);
    else if (r < rate * 0.3) continue;
    else if (r < rate * 0.5 && i + 1 < lines.length) out.push(lines[++i]!, line);
    else out.push(EXTRA[Math.floor(next() * EXTRA.length)]!(Math.floor(next() * 1000)), line);
  }
  return out.map((l) => (next() < 0.2 ? l.replace(/ {4}/g, '\t').replace(/\) \{/, ')\n{') : l)).join('\n');
}

export function submissions(count: number): string[] {
  const bases = BASES.map((f) => fs.readFileSync(path.join(FIXTURES, f), 'utf8'));
  // Deterministic: every run measures the same submissions.
  const next = random(20_261_124);
  return Array.from({ length: count }, () => {
    const base = bases[Math.floor(next() * bases.length)]!;
    return vary(base, next() < 0.35 ? 0.05 : 0.45, next);
  });
}

/** The baseline: every pair's fingerprint sets intersected, no index. Answers the pairs sharing anything. */
function allPairs(docs: readonly Fingerprinted[]): number {
  let sharing = 0;
  for (let i = 0; i < docs.length; i++) {
    const a = docs[i]!.hashes;
    for (let j = i + 1; j < docs.length; j++) {
      const b = docs[j]!.hashes;
      let matched = 0;
      const [small, large] = a.size <= b.size ? [a, b] : [b, a];
      for (const h of small) if (large.has(h)) matched++;
      if (matched > 0) sharing++;
    }
  }
  return sharing;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export const similaritySection: ResultsSection = {
  name: 'similarity',
  async run(log) {
    const sources = submissions(SUBMISSIONS);
    const starter = fs.readFileSync(path.join(FIXTURES, 'starter.cpp'), 'utf8');
    const skip = starterHashes(starter, 'cpp');
    const totals = { fingerprintMs: [] as number[], rankMs: [] as number[], baselineMs: [] as number[] };
    let docs: Fingerprinted[] = [];
    let pairs: SimilarPair[] = [];
    let found: SimilarGroup[] = [];
    for (let run = 0; run < RUNS; run++) {
      let t = performance.now();
      docs = sources.map((s) => fingerprint(s, 'cpp', skip));
      totals.fingerprintMs.push(performance.now() - t);
      t = performance.now();
      pairs = rankPairs(docs);
      found = groups(pairs);
      totals.rankMs.push(performance.now() - t);
      t = performance.now();
      const sharing = allPairs(docs);
      totals.baselineMs.push(performance.now() - t);
      if (sharing !== pairs.length) {
        throw new Error(`baseline found ${sharing} pairs sharing code, the index ${pairs.length}`);
      }
    }
    const t = performance.now();
    for (const p of pairs.slice(0, TOP_FRAGMENTS)) fragments(docs[p.a]!, docs[p.b]!);
    const fragmentsMs = performance.now() - t;
    const result = { fingerprints: docs, pairs };
    const tokens = result.fingerprints.reduce((s, f) => s + f.tokens.length, 0);
    const prints = result.fingerprints.reduce((s, f) => s + f.hashes.size, 0);
    const flagged = result.pairs.filter((p) => p.score >= SIMILARITY_THRESHOLD).length;
    const figures = {
      submissions: SUBMISSIONS,
      pairs: (SUBMISSIONS * (SUBMISSIONS - 1)) / 2,
      pairs_sharing: result.pairs.length,
      pairs_flagged: flagged,
      groups: found.length,
      largest_group: found[0]?.members.length ?? 0,
      tokens_per_submission: Math.round(tokens / SUBMISSIONS),
      fingerprints_per_submission: Math.round(prints / SUBMISSIONS),
      fingerprint_ms: Math.round(median(totals.fingerprintMs)),
      rank_and_group_ms: Math.round(median(totals.rankMs)),
      total_ms: Math.round(median(totals.fingerprintMs) + median(totals.rankMs)),
      baseline_all_pairs_ms: Math.round(median(totals.baselineMs)),
      fragments_top_ms: Math.round(fragmentsMs),
    };
    log(
      `${SUBMISSIONS} C++ submissions (${figures.tokens_per_submission} tokens, ${figures.fingerprints_per_submission} ` +
        `fingerprints each), median of ${RUNS} runs`,
    );
    log(
      `fingerprinting ${figures.fingerprint_ms} ms, ranking ${figures.pairs} pairs and grouping ${figures.rank_and_group_ms} ms`,
    );
    log(
      `${figures.pairs_sharing} pairs share code, ${flagged} at or above ${SIMILARITY_THRESHOLD}, ` +
        `${figures.groups} groups (largest ${figures.largest_group})`,
    );
    log(`baseline, every pair's sets intersected: ${figures.baseline_all_pairs_ms} ms (same pairs found)`);
    log(`fragments of the top ${TOP_FRAGMENTS} pairs: ${figures.fragments_top_ms} ms`);
    return figures;
  },
};
