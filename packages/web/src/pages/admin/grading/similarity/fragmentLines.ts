/**
 * Which lines of each side a pair's fragments cover, for highlighting: line number to the fragment's index
 * (fragments keep their order, so a fragment has the same index, and colour, on both sides). Framework-free.
 */
import type { SimilarityPairDetail } from '@examhall/contract';

/** Line (1-based) to the index of the fragment covering it, on one side. */
export function fragmentLines(fragments: SimilarityPairDetail['fragments'], side: 'a' | 'b'): Map<number, number> {
  const lines = new Map<number, number>();
  fragments.forEach((f, i) => {
    const r = f[side];
    for (let line = r.start_line; line <= r.end_line; line++) if (!lines.has(line)) lines.set(line, i);
  });
  return lines;
}

/** Background colours of fragments, in turn (light enough for dark text, WCAG AA). */
export const FRAGMENT_COLOURS = ['#fff1b8', '#d9f7be', '#bae0ff', '#ffd8bf', '#efdbff', '#b5f5ec'] as const;

/** The colour of the fragment at `index`. */
export function fragmentColour(index: number): string {
  return FRAGMENT_COLOURS[index % FRAGMENT_COLOURS.length]!;
}
