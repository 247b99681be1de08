import { describe, expect, it } from 'vitest';
import type { ExamStep } from '../../exam/steps.js';
import { checkProgress } from './progress.js';

const STEPS: ExamStep[] = [
  { id: -5, key: 'camera', skippable: true },
  { id: -4, key: 'microphone', skippable: false },
  { id: -2, key: 'mobileDevice', skippable: true },
  { id: -1, key: 'signature', skippable: false },
];

describe('check progress', () => {
  it('tells a skip from a pass and makes the first unsettled step current', () => {
    const p = checkProgress(STEPS, [{ step: -5, result: 'skipped' }], new Map(), () => true);
    expect(p).toEqual({ statuses: ['skipped', 'current', 'waiting', 'waiting'], current: 1 });
    const local = new Map([
      [-4, 'passed'],
      [-2, 'skipped'],
    ] as const);
    expect(checkProgress(STEPS, [{ step: -5, result: 'skipped' }], local, () => true).statuses).toEqual([
      'skipped',
      'passed',
      'skipped',
      'current',
    ]);
  });

  it('asks again for a device passed before a reload, and for a skip the exam no longer allows', () => {
    const recorded = [
      { step: -5, result: 'passed' },
      { step: -4, result: 'passed' },
      { step: -2, result: 'skipped' },
      { step: -1, result: 'passed' },
    ] as const;
    const live = (key: string) => key !== 'camera';
    expect(checkProgress(STEPS, [...recorded], new Map(), live)).toEqual({
      statuses: ['current', 'passed', 'skipped', 'passed'],
      current: 0,
    });
    const strict = STEPS.map((s) => ({ ...s, skippable: false }));
    expect(checkProgress(strict, [...recorded], new Map(), () => true).statuses).toEqual([
      'passed',
      'passed',
      'current',
      'passed',
    ]);
    expect(checkProgress(STEPS, [...recorded], new Map(), () => true).current).toBe(-1);
  });
});
