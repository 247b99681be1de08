/**
 * Code similarity across the final code of one programming question: tokenize (tokenize.ts), fingerprint with
 * winnowing less the starter code (fingerprint.ts), rank pairs, group and find matched fragments (compare.ts).
 * The result is a flag for a person to confirm or dismiss, never a verdict.
 */
import type { LanguageId } from '@examhall/contract';
import { fingerprint, starterHashes, type Fingerprinted } from './fingerprint.js';
import { rankPairs, type SimilarPair } from './compare.js';

export { fragments, groups, rankPairs, SIMILARITY_THRESHOLD } from './compare.js';
export type { Fragment, SimilarGroup, SimilarPair, SourceRange } from './compare.js';
export { fingerprint, K, starterHashes, WINDOW, type Fingerprinted } from './fingerprint.js';
export { isSimilarityLanguage, tokenize, type Token } from './tokenize.js';

/** The submissions of one question fingerprinted, and their pairs ranked (those sharing any fingerprint). */
export interface Comparison {
  fingerprints: Fingerprinted[];
  pairs: SimilarPair[];
}

/** Fingerprints every source (the starter code's k-grams removed) and ranks the pairs. */
export function compareSources(sources: readonly string[], language: LanguageId, starter?: string): Comparison {
  const skip = starterHashes(starter, language);
  const fingerprints = sources.map((s) => fingerprint(s, language, skip));
  return { fingerprints, pairs: rankPairs(fingerprints) };
}
