/** Q&A (type 5): rich text and files, scored by a grader against a rubric. */
import { QuestionType } from '../../enums.js';
import { wrongAnswerKind, type KindExample, type QuestionSpec } from '../common.js';
import { QaBody, QaContent, RubricKey } from '../text.js';

export const qa = {
  kind: 'qa',
  type: QuestionType.qa,
  label: { 'zh-CN': '问答题', 'en-US': 'Q&A' },
  sections: ['linetest', 'major'],
  displayOrder: 9,
  content: QaContent,
  key: RubricKey,
  body: QaBody,
  answer: 'text',
  scoring: 'grader',
  shuffleOptions: false,
  code: false,
  sub: false,
  defaultScore: 10,
  responses: () => null,
  score: () => null,
  answerProblem: (_c, value) => wrongAnswerKind('qa', 'text', value),
  candidateView: (c) => ({ stem: c.stem }),
} satisfies QuestionSpec<'qa', QaContent, RubricKey>;

/** Complete questions of the kind, the first the plainest (tests parse them; the demo exam shows them all). */
export const qaExamples = (): KindExample<QaContent, RubricKey>[] => [
  {
    demo: { section: 'major' },
    content: { stem: '<p>简述数据库事务的 ACID 特性。 / Describe the ACID properties of database transactions.</p>' },
    key: {
      rubric: 'Atomicity, consistency, isolation, durability: 2.5 points each.',
      criteria: [
        { title: 'Atomicity 原子性', points: 2.5, description: 'All of a transaction or none of it.' },
        { title: 'Consistency 一致性', points: 2.5, description: 'From one valid state to another.' },
        { title: 'Isolation 隔离性', points: 2.5, description: 'Concurrent transactions do not see each other.' },
        { title: 'Durability 持久性', points: 2.5, description: 'Committed changes survive a crash.' },
      ],
    },
  },
];
