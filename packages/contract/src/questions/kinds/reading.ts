/** Reading (type 9): a passage and sub-questions, each of a kind that may be one, scored together. */
import { QuestionType } from '../../enums.js';
import { letterOptions, type KindExample, type QuestionSpec } from '../common.js';
import { compoundFacts, ReadingKey, readingContent, type ReadingContent, type SubQuestions } from '../compound.js';

/** The reading kind over the sub-question kinds it is given (kinds/index.ts gives it every kind with `sub`). */
export function reading<T extends number>(subs: SubQuestions<T>) {
  return {
    ...compoundFacts('reading', subs, { content: readingContent(subs), key: ReadingKey }),
    type: QuestionType.reading,
    label: { 'zh-CN': '阅读理解', 'en-US': 'Reading' },
    displayOrder: 8,
    candidateView: (c) => ({ stem: c.stem, passage: c.passage, subs: subs.view(c.subs) }),
  } satisfies QuestionSpec<'reading', ReadingContent<T>, ReadingKey>;
}

/** Complete questions of the kind, the first the plainest (tests parse them; the demo exam shows them all). */
export const readingExamples = (): KindExample<ReadingContent, ReadingKey>[] => [
  {
    demo: { points: 6 },
    content: {
      stem: '<p>阅读下文并回答问题。 / Read the passage and answer.</p>',
      passage:
        '<p>Examhall 是一个在线笔试平台。候选人用手机号登录，在监考下完成限时考试。</p><p>Examhall is an online written-test platform. Candidates log in with a phone number and take timed exams under proctoring.</p>',
      subs: [
        {
          id: 1,
          type: QuestionType.single,
          score: 3,
          stem: '<p>候选人如何登录？ / How do candidates log in?</p>',
          options: letterOptions('邮箱 Email', '手机号 Phone number', '微信 WeChat'),
        },
        {
          id: 2,
          type: QuestionType.trueFalse,
          score: 3,
          stem: '<p>考试有时间限制。 / Exams are timed.</p>',
          options: letterOptions('正确 True', '错误 False'),
        },
      ],
    },
    key: { subs: { '1': { option: 'B' }, '2': { option: 'A' } } },
  },
];
