/**
 * Disguised copies the scorer was not tuned on, in C++, Python and Java: per language one short exercise, its
 * original, copies disguised as IR-Plag's levels do (`copy_renamed`: names, layout and comments; `copy_moved`:
 * declarations moved and independent statements reordered; `copy_function`: code moved into functions of its own,
 * or a function written in place; `copy_logic`: loops and conditions rewritten, `x++` as `x += 1` or `x = x + 1`),
 * and solutions of the same exercise written independently (`own_*`), which look alike because the exercise is
 * short.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LanguageId } from '@examhall/contract';
import { describe, expect, it } from 'vitest';
import { compareSources } from './index.js';

const DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'disguised');
/** A copy scores at least this against its original. */
const COPY = 0.5;
/** Two solutions written independently score below this. */
const OWN = 0.4;

describe.each<LanguageId>(['cpp', 'python', 'java'])('disguised copies in %s', (language) => {
  const files = fs.readdirSync(path.join(DIR, language)).sort();
  const sources = files.map((f) => fs.readFileSync(path.join(DIR, language, f), 'utf8'));
  const { pairs } = compareSources(sources, language);
  const score = (a: number, b: number) =>
    pairs.find((p) => p.a === Math.min(a, b) && p.b === Math.max(a, b))?.score ?? 0;
  const original = files.findIndex((f) => /^original\./i.test(f));
  const copies = files.flatMap((f, i) => (/^copy/i.test(f) ? [i] : []));
  const own = files.flatMap((f, i) => (/^copy/i.test(f) ? [] : [i]));

  it('has four disguised copies and five or more solutions written independently besides the original', () => {
    expect(copies).toHaveLength(4);
    expect(own.length).toBeGreaterThanOrEqual(6); // the original and five or more
  });

  it(`scores every copy at least ${COPY} against its original`, () => {
    for (const c of copies) expect(score(original, c), files[c]).toBeGreaterThanOrEqual(COPY);
  });

  it(`keeps every pair of independent solutions (the original among them) below ${OWN}`, () => {
    for (const a of own) {
      for (const b of own) if (a < b) expect(score(a, b), `${files[a]} ~ ${files[b]}`).toBeLessThan(OWN);
    }
  });

  it('ranks each copy of the original above every pair of independent solutions', () => {
    const ownBest = Math.max(...own.flatMap((a) => own.filter((b) => a < b).map((b) => score(a, b))));
    for (const c of copies) expect(score(original, c), files[c]).toBeGreaterThan(ownBest);
  });
});
