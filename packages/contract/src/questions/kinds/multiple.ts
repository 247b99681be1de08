/** Multiple choice (type 2): two or more right options; a right subset earns half. */
import { QuestionType } from '../../enums.js';
import type { ChoiceContent } from '../choice.js';
import { MultipleKey, manyPicksKind } from '../choice.js';
import { letterOptions, type KindExample } from '../common.js';

export const multiple = manyPicksKind('multiple', {
  type: QuestionType.multiple,
  label: { 'zh-CN': '多选题', 'en-US': 'Multiple choice' },
  displayOrder: 2,
  key: MultipleKey,
});

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
