/**
 * Fingerprints of one submission: hashes of its k-grams of normalized tokens, winnowed (the smallest hash of
 * every window of `WINDOW` consecutive k-grams, Schleimer, Wilkerson and Aiken 2003), less every k-gram that
 * also occurs in the question's starter code. Two submissions sharing a stretch of at least
 * `K + WINDOW - 1` tokens outside the starter code share at least one fingerprint.
 */
import type { LanguageId } from '@examhall/contract';
import { hasGrammar, parse, type Features } from './syntax.js';
import { tokenize, type Token } from './tokenize.js';

/** Tokens per k-gram. */
export const K = 10;
/** K-grams per winnowing window. */
export const WINDOW = 4;

/** One submission ready to compare. */
export interface Fingerprinted {
  tokens: Token[];
  /** The distinct fingerprints kept (after the starter code's are removed). */
  hashes: Set<number>;
  /** Where each kept fingerprint's k-gram starts (token indexes). */
  positions: Map<number, number[]>;
  /** Tokens covered by a k-gram of the starter code: never part of a match. */
  starter: Uint8Array;
}

/** A 32-bit hash of a token's text (FNV-1a). */
function tokenHash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** Tokens per k-gram of the structure features of a language read by the hand-written lexer. */
export const FEATURE_K = 5;

/** The hash of every k-gram, as safe integers (two 32-bit polynomial hashes joined into 53 bits). */
export function kgramHashes(tokens: readonly Token[], k = K): number[] {
  const ids = tokens.map((t) => tokenHash(t.text));
  const out: number[] = [];
  for (let p = 0; p + k <= ids.length; p++) {
    let h1 = 0;
    let h2 = 0x12345;
    for (let q = p; q < p + k; q++) {
      h1 = (Math.imul(h1, 0x01000193) + ids[q]!) | 0;
      h2 = (Math.imul(h2 ^ ids[q]!, 0x5bd1e995) + 0x9e3779b9) | 0;
    }
    out.push((h1 >>> 0) * 0x200000 + ((h2 >>> 0) & 0x1fffff));
  }
  return out;
}

/** Robust winnowing: the positions of the rightmost smallest hash of each window, each position once. */
export function winnow(hashes: readonly number[]): number[] {
  if (hashes.length === 0) return [];
  const chosen: number[] = [];
  const w = Math.min(WINDOW, hashes.length);
  let last = -1;
  for (let start = 0; start + w <= hashes.length; start++) {
    let best = start;
    for (let p = start + 1; p < start + w; p++) if (hashes[p]! <= hashes[best]!) best = p;
    if (best !== last) {
      chosen.push(best);
      last = best;
    }
  }
  return chosen;
}

/**
 * A submission's structure features: by its language's parser where there is one (syntax.ts), otherwise (or when
 * the parse runs past its budget) the k-grams of `FEATURE_K` tokens of the hand-written lexer.
 */
export function read(source: string, language: LanguageId, literals = true): Features {
  const parsed = hasGrammar(language) ? parse(source, language, literals) : null;
  if (parsed) return parsed;
  const features = new Map<number, number>();
  for (const h of kgramHashes(tokenize(source, language), FEATURE_K)) features.set(h, (features.get(h) ?? 0) + 1);
  return features;
}

/** What the starter code holds: nobody's own work, so it counts for nothing in a submission. */
export interface Starter {
  /** Every k-gram hash of its tokens. */
  kgrams: Set<number>;
  /** Its structure features. */
  features: Set<number>;
}

/** The starter code read as the submissions are. */
export function starterOf(starter: string | undefined, language: LanguageId): Starter {
  if (!starter) return { kgrams: new Set(), features: new Set() };
  return {
    kgrams: new Set(kgramHashes(tokenize(starter, language))),
    features: new Set(read(starter, language).keys()),
  };
}

/** Every k-gram hash of the starter code: what a submission shares with it is nobody's own work. */
export function starterHashes(starter: string | undefined, language: LanguageId): Set<number> {
  return starterOf(starter, language).kgrams;
}

/** The fingerprints of one submission. */
export function fingerprint(source: string, language: LanguageId, starter: ReadonlySet<number>): Fingerprinted {
  return fingerprintTokens(tokenize(source, language), starter);
}

/** The fingerprints of a token stream. */
export function fingerprintTokens(tokens: Token[], starter: ReadonlySet<number>): Fingerprinted {
  const all = kgramHashes(tokens);
  const covered = new Uint8Array(tokens.length);
  if (starter.size > 0) {
    all.forEach((h, p) => {
      if (starter.has(h)) covered.fill(1, p, p + K);
    });
  }
  const hashes = new Set<number>();
  const positions = new Map<number, number[]>();
  for (const p of winnow(all)) {
    const h = all[p]!;
    if (starter.has(h)) continue;
    hashes.add(h);
    const list = positions.get(h);
    if (list) list.push(p);
    else positions.set(h, [p]);
  }
  return { tokens, hashes, positions, starter: covered };
}
