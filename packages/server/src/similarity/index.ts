/**
 * Code similarity across the final code of one programming question. Each submission is read by its language's
 * parser where there is one (syntax.ts: tree-sitter for C, C++, Java and Python), otherwise by the hand-written
 * lexer (tokenize.ts); pairs are scored on structure features weighted by rarity among the question's
 * submissions, the starter code's removed (rarity.ts); the winnowed fingerprints of the lexer's tokens
 * (fingerprint.ts) find the matched fragments of a pair (compare.ts). The result is a flag for a person to confirm
 * or dismiss, never a verdict.
 */
import type { LanguageId } from '@examhall/contract';

import { fingerprintTokens, read, starterOf, type Fingerprinted } from './fingerprint.js';
import { tokenize } from './tokenize.js';
import { rankWeighted, type Bag, type SimilarPair } from './rarity.js';

export { fragments, groups, rankPairs, SIMILARITY_THRESHOLD } from './compare.js';
export type { Fragment, SimilarGroup, SourceRange } from './compare.js';
export {
  fingerprint,
  fingerprintTokens,
  K,
  read,
  starterHashes,
  starterOf,
  WINDOW,
  type Fingerprinted,
  type Starter,
} from './fingerprint.js';
export { documentFrequencies, rankWeighted, rarity, type Bag, type SimilarPair } from './rarity.js';
export { hasGrammar, parse, PARSE_BUDGET_MS, type Features } from './syntax.js';
export { isSimilarityLanguage, tokenize, type Token } from './tokenize.js';

/** The submissions of one question fingerprinted, and their pairs ranked (those sharing any feature). */
export interface Comparison {
  fingerprints: Fingerprinted[];
  pairs: SimilarPair[];
  /** How many submissions hold each fingerprint, among those held by two or more. */
  rarity: Map<number, number>;
}

/**
 * Reads every source, removes what the starter code holds, and ranks the pairs by rarity-weighted features (those
 * scoring at least `minScore`).
 */
export function compareSources(
  sources: readonly string[],
  language: LanguageId,
  starter?: string,
  minScore = 0,
): Comparison {
  const skip = starterOf(starter, language);
  const fingerprints: Fingerprinted[] = [];
  const bags: Bag[] = [];
  for (const source of sources) {
    fingerprints.push(fingerprintTokens(tokenize(source, language), skip.kgrams));
    const features = read(source, language);
    for (const f of skip.features) features.delete(f);
    bags.push(features);
  }
  const rarity = new Map<number, number>();
  for (const f of fingerprints) for (const h of f.hashes) rarity.set(h, (rarity.get(h) ?? 0) + 1);
  for (const [h, df] of rarity) if (df < 2) rarity.delete(h);
  return { fingerprints, pairs: rankWeighted(bags, minScore), rarity };
}
