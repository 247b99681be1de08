import { describe, expect, it } from 'vitest';
import { answerState, hasContent, shapeOf } from './answerState.js';

describe('answer state', () => {
  it('counts content the same way for every kind', () => {
    expect(hasContent(undefined)).toBe(false);
    expect(hasContent('')).toBe(false);
    expect(hasContent('A')).toBe(true);
    expect(hasContent({ kind: 'choice', option: 'B' })).toBe(true);
    expect(hasContent({ kind: 'multi', options: [] })).toBe(false);
    expect(hasContent({ kind: 'blanks', blanks: ['  ', ''] })).toBe(false);
    expect(hasContent({ kind: 'text', html: '<p> </p>', files: [] })).toBe(false);
    expect(hasContent({ kind: 'text', html: '<p></p>', files: ['answers/1/2/a.png'] })).toBe(true);
    expect(hasContent({ kind: 'code', language: 'python', code: '\n' })).toBe(false);
    expect(hasContent({ kind: 'subs', subs: { '1': { kind: 'multi', options: [] } } })).toBe(false);
  });

  it('tells a fill-in with blanks left apart from one filled in', () => {
    const shape = { blanks: 3 };
    expect(answerState({ kind: 'blanks', blanks: [] }, shape)).toBe('unanswered');
    expect(answerState({ kind: 'blanks', blanks: ['北京', ''] }, shape)).toBe('partial');
    expect(answerState({ kind: 'blanks', blanks: ['北京', '7', ' '] }, shape)).toBe('partial');
    expect(answerState({ kind: 'blanks', blanks: ['北京', '7', '1'] }, shape)).toBe('answered');
    // Without its shape (the question not loaded yet) anything entered counts as answered.
    expect(answerState({ kind: 'blanks', blanks: ['北京', ''] })).toBe('answered');
  });

  it('tells a reading passage with a sub-question left apart from one answered throughout', () => {
    const shape = { subs: [{ id: 1 }, { id: 2, blanks: 2 }] };
    const one = { kind: 'choice' as const, option: 'A' };
    expect(answerState({ kind: 'subs', subs: {} }, shape)).toBe('unanswered');
    expect(answerState({ kind: 'subs', subs: { '1': one } }, shape)).toBe('partial');
    expect(answerState({ kind: 'subs', subs: { '1': one, '2': { kind: 'blanks', blanks: ['x', ''] } } }, shape)).toBe(
      'partial',
    );
    expect(answerState({ kind: 'subs', subs: { '1': one, '2': { kind: 'blanks', blanks: ['x', 'y'] } } }, shape)).toBe(
      'answered',
    );
  });

  it('answers the other kinds as soon as they hold anything', () => {
    expect(answerState({ kind: 'choice', option: 'A' })).toBe('answered');
    expect(answerState({ kind: 'multi', options: ['A'] })).toBe('answered');
    expect(answerState('C')).toBe('answered');
    expect(answerState(null)).toBe('unanswered');
  });

  it('reads the shape from the question as the candidate sees it', () => {
    expect(shapeOf({ blanks: 2 })).toEqual({ blanks: 2 });
    expect(shapeOf({ subs: [{ id: 4, type: 1, order_num: 1, score: 1, stem: '' }] })).toEqual({
      subs: [{ id: 4, blanks: undefined }],
    });
    expect(shapeOf({})).toBeNull();
  });
});
