import { describe, expect, it } from 'vitest';
import { secondsLeft } from '../shell/useCountdown.js';
import { isExamPath, safeRedirect } from './redirect.js';

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

describe('isExamPath', () => {
  it('knows the pages of an exam from the others', () => {
    for (const exam of ['/exam/3/7', '/exam/3/7/answer', '/exam/3/7/monitor?x=1', '/exam/12/40/result'])
      expect(isExamPath(exam)).toBe(true);
    for (const other of ['/exams', '/exam/3', '/exam/a/7/answer', '/profile', '/exam/37'])
      expect(isExamPath(other)).toBe(false);
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
