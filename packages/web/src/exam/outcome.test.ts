import { describe, expect, it } from 'vitest';
import { ownPledge, shownOutcome } from './outcome.js';

describe('shownOutcome', () => {
  it('shows the score, with passed or not when there is a rule', () => {
    expect(shownOutcome({ show_score: 'score', score: 4, max_score: 10, passed: null })).toEqual({
      kind: 'score',
      score: 4,
      max: 10,
      passed: null,
    });
    expect(shownOutcome({ show_score: 'score', score: 6, max_score: 10, passed: true })).toMatchObject({
      kind: 'score',
      passed: true,
    });
  });

  it('shows nothing for an exam without automatically scored points, unless it decided a pass', () => {
    expect(shownOutcome({ show_score: 'score', score: 0, max_score: 0, passed: null })).toEqual({ kind: 'nothing' });
    expect(shownOutcome({ show_score: 'score', score: 0, max_score: 0, passed: true })).toEqual({
      kind: 'pass',
      passed: true,
    });
  });

  it("shows only passed or not for 'pass', and tells an undecided one later", () => {
    expect(shownOutcome({ show_score: 'pass', score: null, max_score: null, passed: false })).toEqual({
      kind: 'pass',
      passed: false,
    });
    expect(shownOutcome({ show_score: 'pass', score: null, max_score: null, passed: null })).toEqual({ kind: 'later' });
  });

  it("tells the result later for 'none', whatever else arrives", () => {
    expect(shownOutcome({ show_score: 'none', score: null, max_score: null, passed: null })).toEqual({ kind: 'later' });
    expect(shownOutcome({ show_score: 'none', score: 3, max_score: 5, passed: true })).toEqual({ kind: 'later' });
  });
});

describe('ownPledge', () => {
  it("answers the exam's pledge, and null for the standard one", () => {
    expect(ownPledge({ pledge: 'I will work alone.' })).toBe('I will work alone.');
    expect(ownPledge({ pledge: '  \n' })).toBeNull();
    expect(ownPledge({ pledge: '' })).toBeNull();
    // A detail cached for offline use before the field existed.
    expect(ownPledge({} as { pledge: string })).toBeNull();
  });
});
