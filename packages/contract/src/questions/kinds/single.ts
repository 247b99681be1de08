/** Single choice (type 1): one right option. */
import { z } from 'zod';
import { QuestionType } from '../../enums.js';
import { ChoiceContent, choiceView, OneOptionKey, oneOptionProblem, optionResponses, scoreOne } from '../choice.js';
import { checkOptionExists, letterOptions, type KindExample, type QuestionSpec } from '../common.js';

const body = z
  .object({ kind: z.literal('single'), content: ChoiceContent, key: OneOptionKey })
  .superRefine((b, ctx) => checkOptionExists(ctx, b.content.options, b.key.option, ['key', 'option']));

export const single = {
  kind: 'single',
  type: QuestionType.single,
  label: { 'zh-CN': '单选题', 'en-US': 'Single choice' },
  sections: ['linetest', 'major'],
  displayOrder: 1,
  content: ChoiceContent,
  key: OneOptionKey,
  body,
  answer: 'choice',
  scoring: 'auto',
  shuffleOptions: true,
  code: false,
  sub: true,
  defaultScore: 5,
  responses: (b) => optionResponses(b.content.options, [b.key.option]),
  score: (b, value, points) => scoreOne(b.key, value, points),
  answerProblem: (c, value) => oneOptionProblem('single', c.options, value),
  candidateView: choiceView,
} satisfies QuestionSpec<'single', ChoiceContent, OneOptionKey>;

/** Complete questions of the kind, the first the plainest (tests parse them; the demo exam shows them all). */
export const singleExamples = (): KindExample<ChoiceContent, OneOptionKey>[] => [
  {
    content: {
      stem: '<p>2, 4, 8, 16, ? 下一个数是多少？ / What comes next?</p>',
      options: letterOptions('24', '32', '30', '64'),
    },
    key: { option: 'B' },
  },
];
