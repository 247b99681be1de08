import { describe, expect, it } from 'vitest';
import { cameraProblem, FACE_MATCH_THRESHOLD, missingChecks, type CheckSettings } from './checks.js';

const NONE: CheckSettings = {
  is_skip_camera: 0,
  is_skip_microphone: 0,
  is_skip_screen: 0,
  is_skip_phone: 0,
  is_close_camera: 0,
  is_close_microphone: 0,
  is_close_screen: 0,
  is_close_phone: 0,
};

describe('device check rules', () => {
  it('passes the camera only on exactly one face that matches the ID photo when there is one', () => {
    expect(cameraProblem(0, null)).toBe('no_face');
    expect(cameraProblem(2, null)).toBe('several_faces');
    expect(cameraProblem(1, null)).toBeNull();
    expect(cameraProblem(1, FACE_MATCH_THRESHOLD)).toBeNull();
    expect(cameraProblem(1, FACE_MATCH_THRESHOLD - 0.01)).toBe('id_mismatch');
  });

  it('names every kept step without a pass, in order, and accepts a skip only where the exam allows it', () => {
    expect(missingChecks(NONE, new Map())).toEqual([
      'camera',
      'microphone',
      'screenSharing',
      'mobileDevice',
      'signature',
    ]);
    const skipped = new Map([
      [-5, 'skipped'],
      [-4, 'skipped'],
      [-3, 'passed'],
      [-1, 'passed'],
    ] as const);
    expect(missingChecks(NONE, skipped)).toEqual(['camera', 'microphone', 'mobileDevice']);
    expect(missingChecks({ ...NONE, is_skip_camera: 1, is_close_phone: 1 }, skipped)).toEqual(['microphone']);
    // A closed step is not asked for, a skippable one still needs its explicit skip.
    expect(
      missingChecks(
        { ...NONE, is_close_camera: 1, is_close_microphone: 1, is_skip_phone: 1 },
        new Map([[-3, 'passed']]),
      ),
    ).toEqual(['mobileDevice', 'signature']);
  });
});
