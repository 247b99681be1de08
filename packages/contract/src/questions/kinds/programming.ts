/** Programming (type 6): judged on hidden cases; its points are the share of cases the latest submit passed. */
import { QuestionType } from '../../enums.js';
import { codeProblem, codeView, ProgrammingBody, ProgrammingContent, ProgrammingKey } from '../code.js';
import type { KindExample, QuestionSpec } from '../common.js';

export const programming = {
  kind: 'programming',
  type: QuestionType.programming,
  label: { 'zh-CN': '编程题', 'en-US': 'Programming' },
  sections: ['linetest', 'major'],
  displayOrder: 11,
  content: ProgrammingContent,
  key: ProgrammingKey,
  body: ProgrammingBody,
  answer: 'code',
  scoring: 'judge',
  shuffleOptions: false,
  code: true,
  sub: false,
  defaultScore: 20,
  responses: () => null,
  score: () => null,
  answerProblem: (c, value) => codeProblem('programming', c, value),
  candidateView: (c) => ({
    ...codeView(c),
    samples: c.samples.map((s) => ({ input: s.input, output: s.output })),
    time_limit_ms: c.time_limit_ms,
    memory_limit_mb: c.memory_limit_mb,
  }),
} satisfies QuestionSpec<'programming', ProgrammingContent, ProgrammingKey>;

/** Complete questions of the kind, the first the plainest (tests parse them; the demo exam shows them all). */
export const programmingExamples = (): KindExample<ProgrammingContent, ProgrammingKey>[] => [
  {
    demo: { section: 'major' },
    content: {
      stem: '<p>输入两个整数 a 和 b，输出 a+b。 / Read two integers a and b and print a+b.</p>',
      languages: ['c', 'cpp', 'java', 'python', 'javascript', 'go', 'rust'],
      // The input read for the candidate, the sum left to them (the other languages start empty).
      starter: {
        c: '#include <stdio.h>\n\nint main(void) {\n    long long a, b;\n    scanf("%lld %lld", &a, &b);\n    /* 在此输出结果 / print the answer here */\n    return 0;\n}\n',
        cpp: '#include <iostream>\nusing namespace std;\n\nint main() {\n    long long a, b;\n    cin >> a >> b;\n    // 在此输出结果 / print the answer here\n    return 0;\n}\n',
        java: 'import java.util.Scanner;\n\npublic class Main {\n    public static void main(String[] args) {\n        Scanner in = new Scanner(System.in);\n        long a = in.nextLong(), b = in.nextLong();\n        // 在此输出结果 / print the answer here\n    }\n}\n',
        python: 'a, b = map(int, input().split())\n# 在此输出结果 / print the answer here\n',
      },
      samples: [{ input: '1 2\n', output: '3\n' }],
      time_limit_ms: 1000,
      memory_limit_mb: 256,
    },
    key: {
      checker: 'default',
      cases: [
        { input: '3 4\n', output: '7\n' },
        { input: '-5 5\n', output: '0\n' },
        { input: '1000000000 1000000000\n', output: '2000000000\n' },
      ],
      reference: { language: 'python', source: 'a, b = map(int, input().split())\nprint(a + b)\n' },
    },
  },
];
