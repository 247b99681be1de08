/** The result page's explanations (pages/exam/Explanations.tsx), in Chinese. */
export const explanationsZh = {
  'result.explanations': '试题解析',
  'result.noExplanations': '本场考试的题目没有解析。',
  'result.explainedQuestion': '第 {n} 题 · {type}',
  'result.optionsOf': '第 {n} 题的选项',
  'result.yourChoice': '你的选择',
  'result.feedbackLabel': '反馈',
  'result.subFeedback': '第 {n} 小题选项 {id}',
  'result.explanation': '解析',
};
