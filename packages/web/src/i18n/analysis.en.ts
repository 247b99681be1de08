import type { analysisZh } from './analysis.zh.js';

/** English strings of the item analysis page (results area) and the flags it raises; spread into the console's dictionaries. */
export const analysisEn: Record<keyof typeof analysisZh, string> = {
  'analysis.title': 'Item analysis',
  'analysis.description':
    "Each question's facility, standard deviation and discrimination over the finished attempts, the share choosing each option of a choice question, and the exam's reliability. Each figure's definition is beside it; a question with negative discrimination is flagged to its author.",
  'analysis.link': 'Item analysis',
  'analysis.back.grading': 'Back to grading',
  'analysis.back.exam': 'Edit the exam',
  'analysis.version': 'Version',
  'analysis.version.option': 'Version {n} ({attempts} attempts)',
  'analysis.computedAt': 'Computed {at} over {n} finished attempts',
  'analysis.computing':
    'Computing the item analysis. With many attempts this takes from a few seconds to a minute; the figures appear here when it is done.',
  'analysis.recomputing':
    'Scores have changed since these figures were computed. Newer figures are being computed and will replace these here.',
  'analysis.computeFailed': 'The item analysis did not finish: {reason}. Reload this page to compute it again.',
  'console.jobs.phase.compute': 'computing',
  'analysis.empty.notPublished':
    'This exam is not published yet, so there is nothing to analyse. Once it is published and candidates submit, the figures appear here.',
  'analysis.empty.noAttempts':
    'No candidate has submitted on this version yet. Reload this page once candidates have submitted.',
  'analysis.empty.noMatch': 'No question matches the filters: clear “Flagged only” or choose another section.',
  'analysis.filter.flagged': 'Flagged only (negative discrimination)',
  'analysis.filter.section': 'Section',
  'analysis.filter.section.all': 'Every section',
  'analysis.flaggedCount': '{n} questions discriminate negatively and need a review',
  'analysis.exam.attempts': 'Attempts',
  'analysis.exam.mean': 'Mean total',
  'analysis.exam.sd': 'SD of totals',
  'analysis.exam.alpha': "Reliability (Cronbach's alpha)",
  'analysis.exam.alphaDef':
    'α = k/(k−1) × (1 − sum of the item variances / variance of the totals), k the number of questions, over the {n} attempts given every question with every answer graded. It tells whether the questions measure one thing: 0.7 or more is usually acceptable, 0.8 or more good; a low value means the questions agree poorly.',
  'analysis.exam.alphaNone':
    'Cannot be computed (it needs two questions, two complete attempts and totals that differ)',
  'analysis.alpha.good': 'good',
  'analysis.alpha.fair': 'acceptable',
  'analysis.alpha.low': 'low',
  'analysis.col.number': 'No.',
  'analysis.col.question': 'Question',
  'analysis.col.n': 'Answers',
  'analysis.col.facility': 'Facility P',
  'analysis.col.sd': 'SD',
  'analysis.col.itemRest': 'Item-rest r',
  'analysis.col.upperLower': 'Discrimination D (upper-lower 27 %)',
  'analysis.col.options': 'Share choosing each option',
  'analysis.def.n':
    'Attempts given this question whose answer has its final points; answers waiting for a grader are left out.',
  'analysis.def.facility':
    "Mean points ÷ the question's points, 0 to 1; higher is easier. About 0.3 to 0.8 is usual for a good question.",
  'analysis.def.sd': 'Sample standard deviation of the points (divided by n−1): how spread the candidates are.',
  'analysis.def.itemRest':
    "Pearson's r between the points on this question and the total on the other questions (this one left out, so it does not correlate with itself). 0.3 or more is good, under 0.2 weak; negative means high scorers did worse on it.",
  'analysis.def.upperLower':
    "Attempts ranked by total: the mean points of the top 27 % minus the bottom 27 %'s, over the question's points, −1 to 1. 0.4 or more excellent, 0.3–0.39 good, 0.2–0.29 fair, under 0.2 revise, negative: check the key.",
  'analysis.def.options':
    'Share of the attempts given the question that chose each option; green is a right option, “none” left it blank. Each option picked in a multiple choice counts.',
  'analysis.points': '{n} points',
  'analysis.pending': '{n} waiting for a grader',
  'analysis.flag': 'Negative discrimination',
  'analysis.flag.hint':
    'Candidates with higher totals did worse on this question: check the key, and whether the stem is ambiguous.',
  'analysis.noAnswer': 'none',
  'analysis.none': '—',
  'analysis.definitions': 'What the figures mean',
  'analysis.bank.flag': 'Negative discrimination',
  'analysis.bank.flagTitle': 'Item analysis found this question discriminating negatively',
  'analysis.bank.flagDetail': '“{exam}”: item-rest r = {itemRest}, D = {upperLower} ({n} attempts, {at})',
  'analysis.bank.flagHint':
    'Candidates with higher totals did worse on it. Check that the key is right and the stem and options are not ambiguous.',
  'analysis.bank.filter': 'Negative discrimination only',
  'analysis.home.flagged': 'My questions to review',
  'analysis.home.flaggedHint':
    'Questions you wrote that item analysis found discriminating negatively: high scorers did worse on them. Check their keys and stems.',
  'analysis.home.toBank': 'See these questions',
};
