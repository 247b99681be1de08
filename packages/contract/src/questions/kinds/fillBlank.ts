/** Fill in the blanks (type 4): each blank earns an equal share when it matches an accepted answer. */
import { QuestionType } from '../../enums.js';
import { blanksProblem, FillBlankBody, FillBlankContent, FillBlankKey, scoreBlanks } from '../blank.js';
import type { KindExample, QuestionSpec } from '../common.js';

export const fillBlank = {
  kind: 'fill_blank',
  type: QuestionType.fillBlank,
  label: { 'zh-CN': '填空题', 'en-US': 'Fill in the blanks' },
  sections: ['linetest', 'major'],
  displayOrder: 6,
  content: FillBlankContent,
  key: FillBlankKey,
  body: FillBlankBody,
  answer: 'blanks',
  scoring: 'auto',
  shuffleOptions: false,
  code: false,
  sub: true,
  defaultScore: 5,
  responses: () => null,
  score: (b, value, points) => scoreBlanks(b.key, value, points),
  answerProblem: (c, value) => blanksProblem('fill_blank', c, value),
  candidateView: (c) => ({ stem: c.stem, blanks: c.blanks }),
} satisfies QuestionSpec<'fill_blank', FillBlankContent, FillBlankKey>;

/** Complete questions of the kind, the first the plainest (tests parse them; the demo exam shows them all). */
export const fillBlankExamples = (): KindExample<FillBlankContent, FillBlankKey>[] => [
  {
    demo: { section: 'major', points: 4 },
    content: {
      stem: '<p>HTTP 状态码 ___ 表示未找到，___ 表示服务器错误。 / Status ___ means not found, ___ means server error.</p>',
      blanks: 2,
    },
    key: { blanks: [['404'], ['500']] },
  },
];
