/** Multiple choice (type 2): two or more right options; a right subset earns half. */
import { z } from 'zod';
import { QuestionType } from '../../enums.js';
import { ChoiceContent, choiceView, manyOptionsProblem, MultipleKey, optionResponses, scoreMany } from '../choice.js';
import { checkOptionExists, letterOptions, type KindExample, type QuestionSpec } from '../common.js';

const body = z
  .object({ kind: z.literal('multiple'), content: ChoiceContent, key: MultipleKey })
  .superRefine((b, ctx) =>
    b.key.options.forEach((id, i) => checkOptionExists(ctx, b.content.options, id, ['key', 'options', i])),
  );

export const multiple = {
  kind: 'multiple',
  type: QuestionType.multiple,
  label: { 'zh-CN': '多选题', 'en-US': 'Multiple choice' },
  sections: ['linetest', 'major'],
  displayOrder: 2,
  content: ChoiceContent,
  key: MultipleKey,
  body,
  answer: 'multi',
  scoring: 'auto',
  shuffleOptions: true,
  code: false,
  sub: true,
  defaultScore: 5,
  responses: (b) => optionResponses(b.content.options, b.key.options),
  score: (b, value, points) => scoreMany(b.key, value, points),
  answerProblem: (c, value) => manyOptionsProblem('multiple', c.options, value),
  candidateView: choiceView,
} satisfies QuestionSpec<'multiple', ChoiceContent, MultipleKey>;

/** Complete questions of the kind, the first the plainest (tests parse them; the demo exam shows them all). */
export const multipleExamples = (): KindExample<ChoiceContent, MultipleKey>[] => [
  {
    content: {
      stem: '<p>以下哪些是质数？ / Which are prime numbers?</p>',
      options: letterOptions('2', '9', '11', '15'),
    },
    key: { options: ['A', 'C'] },
  },
];
