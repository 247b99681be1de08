/** The programming problem tests share: read a and b, print a+b, with a reference solution the judge accepts. */
import type { QuestionBody } from '@examhall/contract';
import { body, type TestApp } from './app.js';
import { enterExam } from './checks.js';

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

/** The demo exam's candidate in their attempt. */
export interface CodingCandidate {
  examId: number;
  token: string;
  /** The questions as the candidate's page lists them. */
  order: { id: number; type: number }[];
}

/** Seeds the demo exam invited to 13800138000, logs that candidate in and enters the exam (passing the checks). */
export async function codingCandidate(t: TestApp): Promise<CodingCandidate> {
  const { examId, anid } = await t.seed('13800138000');
  const token = await t.loginCandidate('13800138000');
  await enterExam(t, token, examId, anid);
  const order = body<{ subject_order: { id: number; type: number }[] }>(
    await t.app.inject(`/api/subject/order-list?exam_id=${examId}&auth=${token}`),
  ).data.subject_order;
  return { examId, token, order };
}
