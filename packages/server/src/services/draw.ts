import { createHash, randomInt } from 'node:crypto';
import type { VersionBundle } from './catalog.js';

/** A uniform random integer in [0, n): crypto's by default, a seeded one in tests. */
export type RandomInt = (n: number) => number;

/** A uniformly random shuffle (Fisher-Yates) of a copy of `items`. */
export function shuffled<T>(items: readonly T[], random: RandomInt = randomInt): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = random(i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/**
 * Options in an order of their own for `seed` (an attempt and a question): the same on every call, so a
 * reload shows them as before, and different between candidates. Option ids stay, so answers are unaffected.
 */
export function optionOrder<T extends { id: string }>(options: readonly T[], seed: string): T[] {
  const rank = (id: string) => createHash('sha256').update(`${seed}:${id}`).digest('hex');
  return options
    .map((o) => ({ o, r: rank(o.id) }))
    .sort((a, b) => (a.r < b.r ? -1 : a.r > b.r ? 1 : 0))
    .map((x) => x.o);
}

/**
 * `count` items of `pool` drawn uniformly at random without replacement (a partial Fisher-Yates shuffle:
 * every subset of that size is equally likely), in the order drawn.
 */
export function drawWithoutReplacement<T>(pool: readonly T[], count: number, random: RandomInt = randomInt): T[] {
  if (count > pool.length) throw new Error(`cannot draw ${count} of ${pool.length}`);
  const out = [...pool];
  for (let i = 0; i < count; i++) {
    const j = i + random(out.length - i);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out.slice(0, count);
}

/**
 * The questions one attempt gets, in its order: every question of a fixed section and a fresh draw of each
 * draw section, shuffled as a whole when the exam shuffles questions. Null when the version neither draws
 * nor shuffles (the attempt simply gets every question, nothing to store).
 */
export function drawForAttempt(
  version: Pick<VersionBundle, 'sections' | 'draws'>,
  shuffleQuestions: boolean,
  random: RandomInt = randomInt,
): number[] | null {
  if (!version.draws && !shuffleQuestions) return null;
  const ids = [...version.sections]
    .sort((a, b) => a.order_num - b.order_num)
    .flatMap((s) => {
      if (s.draw_count === null) return s.question_ids;
      // Drawn questions keep the pool's order unless the exam shuffles.
      const drawn = new Set(drawWithoutReplacement(s.question_ids, s.draw_count, random));
      return s.question_ids.filter((id) => drawn.has(id));
    });
  return shuffleQuestions ? shuffled(ids, random) : ids;
}
