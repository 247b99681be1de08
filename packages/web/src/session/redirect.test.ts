import { describe, expect, it } from 'vitest';
import { secondsLeft } from '../shell/useCountdown.js';
import { safeRedirect } from './redirect.js';

describe('safeRedirect', () => {
  it('keeps paths inside the app', () => {
    expect(safeRedirect('/exams?x=1', '/')).toBe('/exams?x=1');
  });

  it('refuses other origins and empty values', () => {
    for (const bad of [null, '', 'https://evil.test/', '//evil.test/x', '/\\evil.test', 'exams']) {
      expect(safeRedirect(bad, '/exams')).toBe('/exams');
    }
  });
});

describe('secondsLeft', () => {
  it('rounds up and never goes below zero', () => {
    expect(secondsLeft(10_000, 0)).toBe(10);
    expect(secondsLeft(10_000, 9_001)).toBe(1);
    expect(secondsLeft(10_000, 10_000)).toBe(0);
    expect(secondsLeft(10_000, 20_000)).toBe(0);
  });
});
