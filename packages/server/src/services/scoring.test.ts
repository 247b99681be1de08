import { QuestionType } from '@examhall/contract';
import { describe, expect, it } from 'vitest';
import { answerProblem, normalizeBlank, scoreAnswer } from './scoring.js';

describe('automatic scoring', () => {
  it('scores single and true/false by the one right option', () => {
    expect(scoreAnswer(QuestionType.single, { option: 'B' }, { kind: 'choice', option: 'B' }, 5)).toBe(5);
    expect(scoreAnswer(QuestionType.trueFalse, { option: 'A' }, { kind: 'choice', option: 'B' }, 2)).toBe(0);
    expect(scoreAnswer(QuestionType.single, { option: 'B' }, null, 5)).toBe(0);
  });

  it('gives multiple and indefinite full points for the exact set, half for a clean subset, nothing with a wrong pick', () => {
    const key = { options: ['A', 'C', 'D'] };
    for (const type of [QuestionType.multiple, QuestionType.indefinite]) {
      expect(scoreAnswer(type, key, { kind: 'multi', options: ['D', 'A', 'C'] }, 6)).toBe(6);
      expect(scoreAnswer(type, key, { kind: 'multi', options: ['A'] }, 6)).toBe(3);
      expect(scoreAnswer(type, key, { kind: 'multi', options: ['A', 'B'] }, 6)).toBe(0);
      expect(scoreAnswer(type, key, { kind: 'multi', options: [] }, 6)).toBe(0);
    }
  });

  it('scores blanks by equal shares with accepted variants, ignoring case, width and spacing', () => {
    const key = { blanks: [['404'], ['server error', '500']] };
    expect(scoreAnswer(QuestionType.fillBlank, key, { kind: 'blanks', blanks: ['４０４', ' 500 '] }, 4)).toBe(4);
    expect(scoreAnswer(QuestionType.fillBlank, key, { kind: 'blanks', blanks: ['404', 'Server   Error'] }, 4)).toBe(4);
    expect(scoreAnswer(QuestionType.fillBlank, key, { kind: 'blanks', blanks: ['404'] }, 4)).toBe(2);
    expect(scoreAnswer(QuestionType.fillBlank, key, { kind: 'blanks', blanks: ['', ''] }, 4)).toBe(0);
    expect(normalizeBlank('  ＡＢＣ  d ')).toBe('abc d');
  });

  it('scales gradient choices to the question’s points', () => {
    const key = { scores: { A: 5, B: 4, C: 3 } };
    expect(scoreAnswer(QuestionType.gradient, key, { kind: 'choice', option: 'A' }, 10)).toBe(10);
    expect(scoreAnswer(QuestionType.gradient, key, { kind: 'choice', option: 'C' }, 10)).toBe(6);
  });

  it('adds up reading and listening sub-questions', () => {
    const subs = [
      { id: 1, type: QuestionType.single, score: 3, stem: '' },
      { id: 2, type: QuestionType.multiple, score: 4, stem: '' },
    ];
    const key = { subs: { '1': { option: 'B' }, '2': { options: ['A', 'B'] } } };
    const value = {
      kind: 'subs' as const,
      subs: { '1': { kind: 'choice' as const, option: 'B' }, '2': { kind: 'multi' as const, options: ['A'] } },
    };
    expect(scoreAnswer(QuestionType.reading, key, value, 7, subs)).toBe(5);
    expect(scoreAnswer(QuestionType.listening, key, value, 7, subs)).toBe(5);
  });

  it('leaves Q&A and code to graders and the judge', () => {
    expect(scoreAnswer(QuestionType.qa, {}, { kind: 'text', html: 'x', files: [] }, 10)).toBe(0);
  });
});

describe('answer shape checks', () => {
  const content = {
    stem: '',
    options: [
      { id: 'A', content: '' },
      { id: 'B', content: '' },
    ],
    blanks: 2,
    languages: ['cpp'],
  };
  it('accepts answers that fit and names what does not', () => {
    expect(answerProblem(QuestionType.single, content, { kind: 'choice', option: 'A' })).toBeNull();
    expect(answerProblem(QuestionType.single, content, { kind: 'choice', option: 'Z' })).toBe(
      'answer.option: no such option',
    );
    expect(answerProblem(QuestionType.single, content, { kind: 'multi', options: ['A'] })).toContain(
      "takes a 'choice' answer",
    );
    expect(answerProblem(QuestionType.multiple, content, { kind: 'multi', options: ['A', 'A'] })).toContain('twice');
    expect(answerProblem(QuestionType.fillBlank, content, { kind: 'blanks', blanks: ['a', 'b', 'c'] })).toContain(
      'more answers',
    );
    expect(answerProblem(QuestionType.programming, content, { kind: 'code', language: 'java', code: '' })).toContain(
      'not offered',
    );
    const reading = {
      stem: '',
      subs: [{ id: 1, type: QuestionType.single, score: 1, stem: '', options: [{ id: 'A', content: '' }] }],
    };
    expect(
      answerProblem(QuestionType.reading, reading, { kind: 'subs', subs: { '1': { kind: 'choice', option: 'A' } } }),
    ).toBeNull();
    expect(
      answerProblem(QuestionType.reading, reading, { kind: 'subs', subs: { '2': { kind: 'choice', option: 'A' } } }),
    ).toContain('no such sub-question');
    expect(
      answerProblem(QuestionType.reading, reading, { kind: 'subs', subs: { '1': { kind: 'choice', option: 'Q' } } }),
    ).toBe('answer.subs.1.option: no such option');
  });
});
