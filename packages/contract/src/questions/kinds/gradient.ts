/** Gradient choice (type 11 outside the evaluation section): every option earns some of the points. */
import { z } from 'zod';
import { QuestionType } from '../../enums.js';
import {
  bestOptions,
  ChoiceContent,
  choiceView,
  GradientKey,
  oneOptionProblem,
  optionResponses,
  scoreGradient,
} from '../choice.js';
import { checkOptionScores, letterOptions, type KindExample, type QuestionSpec } from '../common.js';

const body = z
  .object({ kind: z.literal('gradient'), content: ChoiceContent, key: GradientKey })
  .superRefine((b, ctx) => checkOptionScores(ctx, b.content.options, b.key.scores, ['key', 'scores']));

export const gradient = {
  kind: 'gradient',
  type: QuestionType.gradient,
  label: { 'zh-CN': '梯度选择题', 'en-US': 'Gradient choice' },
  sections: ['linetest', 'major'],
  displayOrder: 3,
  content: ChoiceContent,
  key: GradientKey,
  body,
  answer: 'choice',
  scoring: 'auto',
  // The options are a scale: their order is part of the question.
  shuffleOptions: false,
  code: false,
  sub: true,
  defaultScore: 5,
  // Item analysis counts the best-scored options as the key.
  responses: (b) => optionResponses(b.content.options, bestOptions(b.key.scores)),
  score: (b, value, points) => scoreGradient(b.key, value, points),
  answerProblem: (c, value) => oneOptionProblem('gradient', c.options, value),
  candidateView: choiceView,
} satisfies QuestionSpec<'gradient', ChoiceContent, GradientKey>;

/** Complete questions of the kind, the first the plainest (tests parse them; the demo exam shows them all). */
export const gradientExamples = (): KindExample<ChoiceContent, GradientKey>[] => [
  {
    demo: { section: 'major' },
    content: {
      stem: '<p>团队成员意见不一致时，你通常会： / When your team disagrees, you usually:</p>',
      options: letterOptions(
        '组织讨论，寻找共识 Hold a discussion to find consensus',
        '听取意见后由负责人决定 Let the lead decide after hearing everyone',
        '按自己的方案执行 Go ahead with your own plan',
      ),
    },
    key: { scores: { A: 5, B: 3, C: 1 } },
  },
];
