/** Programming Q&A (type 8): code the candidate runs on samples, scored by a grader. */
import { QuestionType } from '../../enums.js';
import { codeProblem, codeView, ProgrammingQaBody, ProgrammingQaContent, ProgrammingQaKey } from '../code.js';
import type { KindExample, QuestionSpec } from '../common.js';

export const programmingQa = {
  kind: 'programming_qa',
  type: QuestionType.programmingQa,
  label: { 'zh-CN': '编程问答题', 'en-US': 'Programming Q&A' },
  sections: ['linetest', 'major'],
  displayOrder: 10,
  content: ProgrammingQaContent,
  key: ProgrammingQaKey,
  body: ProgrammingQaBody,
  answer: 'code',
  scoring: 'grader',
  shuffleOptions: false,
  code: true,
  sub: false,
  defaultScore: 10,
  responses: () => null,
  score: () => null,
  answerProblem: (c, value) => codeProblem('programming_qa', c, value),
  candidateView: codeView,
} satisfies QuestionSpec<'programming_qa', ProgrammingQaContent, ProgrammingQaKey>;

/** Complete questions of the kind, the first the plainest (tests parse them; the demo exam shows them all). */
export const programmingQaExamples = (): KindExample<ProgrammingQaContent, ProgrammingQaKey>[] => [
  {
    demo: { section: 'major' },
    content: {
      stem: '<p>写一个函数，判断字符串是否为回文。 / Write a function that tells whether a string is a palindrome.</p>',
      languages: ['cpp', 'java', 'python', 'javascript', 'go'],
      // The function to write, its body left to the candidate.
      starter: {
        cpp: '#include <string>\nusing namespace std;\n\nbool isPalindrome(const string& s) {\n    // 在此实现 / write it here\n    return false;\n}\n',
        java: 'public class Main {\n    static boolean isPalindrome(String s) {\n        // 在此实现 / write it here\n        return false;\n    }\n}\n',
        python: 'def is_palindrome(s: str) -> bool:\n    # 在此实现 / write it here\n    return False\n',
        javascript: 'function isPalindrome(s) {\n  // 在此实现 / write it here\n  return false;\n}\n',
        go: 'package main\n\nfunc isPalindrome(s string) bool {\n\t// 在此实现 / write it here\n\treturn false\n}\n',
      },
    },
    key: {
      rubric: 'Correct two-pointer or reverse comparison; handles empty string.',
      criteria: [
        { title: 'Correctness 正确性', points: 6, description: 'Two-pointer or reverse comparison that works.' },
        { title: 'Edge cases 边界', points: 2, description: 'Handles the empty string and one character.' },
        { title: 'Clarity 可读性', points: 2, description: 'Readable names and structure.' },
      ],
    },
  },
];
