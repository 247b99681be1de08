/** True/false (type 7): a statement and exactly two options, true first by convention. */
import { z } from 'zod';
import { QuestionType } from '../../enums.js';
import { choiceView, OneOptionKey, oneOptionProblem, optionResponses, scoreOne, TrueFalseContent } from '../choice.js';
import { checkOptionExists, letterOptions, type KindExample, type QuestionSpec } from '../common.js';

const body = z
  .object({ kind: z.literal('true_false'), content: TrueFalseContent, key: OneOptionKey })
  .superRefine((b, ctx) => checkOptionExists(ctx, b.content.options, b.key.option, ['key', 'option']));

export const trueFalse = {
  kind: 'true_false',
  type: QuestionType.trueFalse,
  label: { 'zh-CN': '判断题', 'en-US': 'True or false' },
  sections: ['linetest', 'major'],
  displayOrder: 5,
  content: TrueFalseContent,
  key: OneOptionKey,
  body,
  answer: 'choice',
  scoring: 'auto',
  // True stays before false: the two options keep their order.
  shuffleOptions: false,
  code: false,
  sub: true,
  defaultScore: 2,
  responses: (b) => optionResponses(b.content.options, [b.key.option]),
  score: (b, value, points) => scoreOne(b.key, value, points),
  answerProblem: (c, value) => oneOptionProblem('true_false', c.options, value),
  candidateView: choiceView,
} satisfies QuestionSpec<'true_false', TrueFalseContent, OneOptionKey>;

/** Complete questions of the kind, the first the plainest (tests parse them; the demo exam shows them all). */
export const trueFalseExamples = (): KindExample<TrueFalseContent, OneOptionKey>[] => [
  {
    content: {
      stem: '<p>所有的正方形都是矩形。 / Every square is a rectangle.</p>',
      options: letterOptions('正确 True', '错误 False'),
    },
    key: { option: 'A' },
  },
];
