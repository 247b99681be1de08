import { QUESTION_REGISTRY } from '@examhall/contract';
import { describe, expect, it } from 'vitest';
import { storedTypeLabel } from './labels.js';

describe('storedTypeLabel', () => {
  const shared = QUESTION_REGISTRY.evaluation.type;

  it('names a type two kinds share by the kind its section holds', () => {
    expect(QUESTION_REGISTRY.gradient.type).toBe(shared);
    expect(storedTypeLabel(shared, 'evaluation', 'zh-CN')).toBe('测评题');
    expect(storedTypeLabel(shared, 'evaluation', 'en-US')).toBe('Evaluation item');
    expect(storedTypeLabel(shared, 'linetest', 'zh-CN')).toBe('梯度选择题');
    expect(storedTypeLabel(shared, 'major', 'en-US')).toBe('Gradient choice');
  });

  it('names a type by its id when no kind has it', () => {
    expect(storedTypeLabel(999, 'major', 'en-US')).toBe('999');
  });
});
