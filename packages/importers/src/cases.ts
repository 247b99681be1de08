/** The contract's limits on a programming problem's test cases, checked where a format reads them. */
import { CODE_LIMITS } from '@examhall/contract';
import { problem } from './problems.js';
import type { Problem, Where } from './types.js';

/** A test case as a format reads it. */
export interface ReadCase {
  input: string;
  output: string;
  name?: string;
}

const KINDS = {
  samples: { max: CODE_LIMITS.samples, chars: CODE_LIMITS.sampleChars, what: ['samples', '样例'] },
  cases: { max: CODE_LIMITS.cases, chars: CODE_LIMITS.caseChars, what: ['hidden cases', '隐藏测试用例'] },
} as const;

/**
 * Problems of `list` past the limits of its kind: too many cases (located by `whereOf(null)`), or a case too
 * large (located by `whereOf` of its name, its position from 1 when it has none).
 */
export function caseLimitProblems(
  list: readonly ReadCase[],
  kind: keyof typeof KINDS,
  whereOf: (name: string | null) => Where,
): Problem[] {
  const { max, chars, what } = KINDS[kind];
  const found: Problem[] = [];
  if (list.length > max) {
    found.push(
      problem(whereOf(null), 'too_many_cases', 'error', {
        count: list.length,
        limit: max,
        what: what[0],
        what_zh: what[1],
      }),
    );
  }
  list.forEach((c, k) => {
    const size = Math.max(c.input.length, c.output.length);
    const name = c.name ?? String(k + 1);
    if (size > chars) {
      found.push(
        problem(whereOf(name), 'case_too_large', 'error', {
          name,
          chars: size,
          limit: chars,
          what: what[0],
          what_zh: what[1],
        }),
      );
    }
  });
  return found;
}
