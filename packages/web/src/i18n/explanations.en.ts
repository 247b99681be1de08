import type { explanationsZh } from './explanations.zh.js';

/** The result page's explanations, in English. */
export const explanationsEn: Record<keyof typeof explanationsZh, string> = {
  'result.explanations': 'Explanations',
  'result.noExplanations': 'No question of this exam has an explanation.',
  'result.explainedQuestion': 'Question {n} · {type}',
  'result.optionsOf': 'Options of question {n}',
  'result.yourChoice': 'Your choice',
  'result.feedbackLabel': 'Feedback',
  'result.subFeedback': 'Sub-question {n}, option {id}',
  'result.explanation': 'Explanation',
};
