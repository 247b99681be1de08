/** Indefinite choice (type 3): one or more right options; a right subset earns half. */
import { z } from 'zod';
import { QuestionType } from '../../enums.js';
import { ChoiceContent, choiceView, IndefiniteKey, manyOptionsProblem, optionResponses, scoreMany } from '../choice.js';
import { checkOptionExists, letterOptions, type KindExample, type QuestionSpec } from '../common.js';

const body = z
  .object({ kind: z.literal('indefinite'), content: ChoiceContent, key: IndefiniteKey })
  .superRefine((b, ctx) =>
    b.key.options.forEach((id, i) => checkOptionExists(ctx, b.content.options, id, ['key', 'options', i])),
  );

export const indefinite = {
  kind: 'indefinite',
  type: QuestionType.indefinite,
  label: { 'zh-CN': '不定项选择题', 'en-US': 'One or more correct' },
  sections: ['linetest', 'major'],
  displayOrder: 4,
  content: ChoiceContent,
  key: IndefiniteKey,
  body,
  answer: 'multi',
  scoring: 'auto',
  shuffleOptions: true,
  code: false,
  sub: true,
  defaultScore: 5,
  responses: (b) => optionResponses(b.content.options, b.key.options),
  score: (b, value, points) => scoreMany(b.key, value, points),
  answerProblem: (c, value) => manyOptionsProblem('indefinite', c.options, value),
  candidateView: choiceView,
} satisfies QuestionSpec<'indefinite', ChoiceContent, IndefiniteKey>;

/** Complete questions of the kind, the first the plainest (tests parse them; the demo exam shows them all). */
export const indefiniteExamples = (): KindExample<ChoiceContent, IndefiniteKey>[] => [
  {
    content: {
      stem: '<p>以下哪些城市位于长江沿岸？ / Which cities lie on the Yangtze?</p>',
      options: letterOptions('武汉 Wuhan', '南京 Nanjing', '西安 Xi’an', '重庆 Chongqing'),
    },
    key: { options: ['A', 'B', 'D'] },
  },
];
