/**
 * Evaluation item (stored as type 11 in the evaluation section, and only there): a statement whose chosen option's
 * points go to the item's dimension, not to the exam's score.
 */
import { QuestionType } from '../../enums.js';
import { choiceView, oneOptionProblem } from '../choice.js';
import { letterOptions, type KindExample, type QuestionSpec } from '../common.js';
import { EvaluationBody, EvaluationContent, EvaluationKey } from '../evaluation.js';

const likert = () =>
  letterOptions(
    '非常同意 Strongly agree',
    '同意 Agree',
    '一般 Neutral',
    '不同意 Disagree',
    '非常不同意 Strongly disagree',
  );

export const evaluation = {
  kind: 'evaluation',
  type: QuestionType.gradient,
  label: { 'zh-CN': '测评题', 'en-US': 'Evaluation item' },
  sections: ['evaluation'],
  displayOrder: 3,
  content: EvaluationContent,
  key: EvaluationKey,
  body: EvaluationBody,
  answer: 'choice',
  scoring: 'dimension',
  // A scale: its order is part of the item.
  shuffleOptions: false,
  code: false,
  sub: false,
  defaultScore: 5,
  // The evaluation section is reported by dimension, not by item.
  responses: () => null,
  score: (b, value) => (value?.kind === 'choice' ? (b.key.scores[value.option] ?? 0) : 0),
  answerProblem: (c, value) => oneOptionProblem('evaluation', c.options, value),
  // The dimension is for staff reports; candidates see only the statement and the options.
  candidateView: choiceView,
} satisfies QuestionSpec<'evaluation', EvaluationContent, EvaluationKey>;

/** Complete questions of the kind, the first the plainest (tests parse them; the demo exam shows them all). */
export const evaluationExamples = (): KindExample<EvaluationContent, EvaluationKey>[] => [
  {
    content: {
      stem: '<p>我喜欢在团队中工作。 / I enjoy working in a team.</p>',
      options: likert(),
      dimension: 'teamwork',
    },
    key: { scores: { A: 5, B: 4, C: 3, D: 2, E: 1 } },
  },
  {
    content: {
      stem: '<p>面对压力时我能保持冷静。 / I stay calm under pressure.</p>',
      options: likert(),
      dimension: 'resilience',
    },
    key: { scores: { A: 5, B: 4, C: 3, D: 2, E: 1 } },
  },
];
