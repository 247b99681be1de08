import { letterOptions, type AnswerValue } from '@examhall/contract';
import type { SeedAttempt, SeedQuestion } from '../bench/resultsSeed.js';

/** A single choice of three options worth 1 point, keyed `option`. */
function single(section: SeedQuestion['section'], stem: string, option: string): SeedQuestion {
  return {
    section,
    score: 1,
    body: { kind: 'single', content: { stem, options: letterOptions('a', 'b', 'c') }, key: { option } },
  };
}

/**
 * The hand-computed data of `services/itemAnalysis.test.ts` as an exam and its finished attempts (seeded with
 * `bench/resultsSeed.ts`): four questions worth 1, 1, 2 and 1 points, Q1 and Q4 single choices (keys A and B), and
 * ten attempts in which the weakest candidates get Q4 right, so Q4 alone discriminates negatively.
 */
export const ITEM_QUESTIONS: SeedQuestion[] = [
  single('linetest', '<p>Q1</p>', 'A'),
  { section: 'linetest', score: 1, body: { kind: 'qa', content: { stem: '<p>Q2</p>' }, key: {} } },
  { section: 'major', score: 2, body: { kind: 'qa', content: { stem: '<p>Q3 <b>essay</b></p>' }, key: {} } },
  single('major', '<p>Q4</p>', 'B'),
];

/** Points per attempt, in the attempts' order (ties in the ranking go to the earlier attempt). */
export const ITEM_POINTS = [
  [1, 1, 2, 0],
  [1, 1, 2, 0],
  [1, 0, 2, 0],
  [1, 1, 1, 0],
  [0, 1, 1, 1],
  [1, 0, 1, 0],
  [0, 0, 1, 1],
  [1, 0, 0, 1],
  [0, 0, 0, 1],
  [0, 0, 0, 1],
];
/** The option each attempt chose at Q1 ('' for none), in the attempts' order. */
export const Q1_CHOSE = ['A', 'A', 'A', 'A', 'B', 'A', 'C', 'A', '', 'B'];
/** The option each attempt chose at Q4 ('' for none). */
export const Q4_CHOSE = ['A', 'C', 'A', '', 'B', 'A', 'B', 'B', 'B', 'B'];

/** A single choice's answer, or none for ''. */
export const choiceOf = (o: string): AnswerValue | null => (o ? { kind: 'choice', option: o } : null);

/** The ten attempts with their answers to Q1 and Q4. */
export const ITEM_ATTEMPTS: SeedAttempt[] = ITEM_POINTS.map((points, i) => ({
  points,
  answers: [choiceOf(Q1_CHOSE[i]!), null, null, choiceOf(Q4_CHOSE[i]!)],
}));

/** Cronbach's alpha of the data: 4/3 · (1 - 13.3/10.5). */
export const ITEM_ALPHA = (4 / 3) * (1 - 13.3 / 10.5);
