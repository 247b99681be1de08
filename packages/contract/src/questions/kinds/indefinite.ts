/** Indefinite choice (type 3): one or more right options; a right subset earns half. */
import { QuestionType } from '../../enums.js';
import type { ChoiceContent } from '../choice.js';
import { IndefiniteKey, manyPicksKind } from '../choice.js';
import { letterOptions, type KindExample } from '../common.js';

export const indefinite = manyPicksKind('indefinite', {
  type: QuestionType.indefinite,
  label: { 'zh-CN': '不定项选择题', 'en-US': 'One or more correct' },
  displayOrder: 4,
  key: IndefiniteKey,
});

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
