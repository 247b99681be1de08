/** The programming problem tests share: read a and b, print a+b, with a reference solution the judge accepts. */
import type { QuestionBody } from '@examhall/contract';

/** a + b in Python: the reference solution and a right answer. */
export const PY_SUM = 'a, b = map(int, input().split())\nprint(a + b)\n';

/** A programming question of a + b with a sample, three hidden cases and PY_SUM as its reference. */
export const SUM_PROBLEM = {
  kind: 'programming',
  content: {
    stem: '<p>Read a and b, print a+b.</p>',
    languages: ['python', 'cpp'],
    samples: [{ input: '1 2\n', output: '3\n' }],
    time_limit_ms: 2000,
    memory_limit_mb: 256,
  },
  key: {
    checker: 'default',
    cases: [
      { name: '1', input: '3 4\n', output: '7\n' },
      { name: '2', input: '-5 5\n', output: '0\n' },
      { name: '3', input: '10 20\n', output: '30\n' },
    ],
    reference: { language: 'python', source: PY_SUM },
  },
} as const satisfies QuestionBody;
