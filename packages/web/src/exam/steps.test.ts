import type { ExamDetail } from '@examhall/contract';
import { describe, expect, it } from 'vitest';
import { examSteps } from './steps.js';

const flags = {
  is_skip_camera: 1,
  is_skip_microphone: 0,
  is_skip_screen: 1,
  is_skip_phone: 1,
  is_close_camera: 0,
  is_close_microphone: 0,
  is_close_screen: 1,
  is_close_phone: 0,
} as const;

describe('examSteps', () => {
  it('drops closed steps, keeps the order, and never lets the pledge be skipped', () => {
    const steps = examSteps(flags as unknown as ExamDetail);
    expect(steps.map((s) => s.key)).toEqual(['camera', 'microphone', 'mobileDevice', 'signature']);
    expect(steps.map((s) => s.id)).toEqual([-5, -4, -2, -1]);
    expect(steps.map((s) => s.skippable)).toEqual([true, false, true, false]);
  });
});
