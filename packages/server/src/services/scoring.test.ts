import { QuestionType, type Section } from '@examhall/contract';
import { describe, expect, it } from 'vitest';
import type { CatalogQuestion } from './catalog.js';
import { automaticPoints, gradedByPerson, manualFinal, storedAnswer } from './scoring.js';
import { bodyOf, readStoredQuestion } from './storedQuestion.js';

// The rules per kind are tested with the registry (packages/contract/src/questions); these test the server's
// side: stored rows and answers, judged submits, and rows that no longer parse.

let nextId = 1;
/** A catalog question from a stored row, the way the catalog reads it. */
function stored(type: number, content: unknown, key: unknown, score = 10, section: Section = 'major', kind = '') {
  const row = { id: nextId++, kind, type, content: JSON.stringify(content), answer_key: JSON.stringify(key) };
  return {
    id: row.id,
    type,
    order_num: 1,
    score,
    section,
    section_id: 1,
    bank_question_id: null,
    ...readStoredQuestion(row, section),
  } as CatalogQuestion;
}

const options = [
  { id: 'A', content: 'a' },
  { id: 'B', content: 'b' },
];

describe('reading stored questions', () => {
  it('reads rows stored before kinds by type and section', () => {
    expect(stored(QuestionType.gradient, { stem: 's', options }, { scores: { A: 1, B: 2 } }).kind).toBe('gradient');
    const item = stored(
      QuestionType.gradient,
      { stem: 's', options, dimension: 'teamwork' },
      { scores: { A: 1, B: 2 } },
      5,
      'evaluation',
    );
    expect(item.kind).toBe('evaluation');
    expect(item.problem).toBeNull();
  });

  it('answers the first problem of a row that no longer parses, and bodyOf turns it into question_invalid', () => {
    const broken = stored(QuestionType.single, { stem: 's', options }, { option: 'Q' });
    expect(broken.body).toBeNull();
    expect(broken.problem).toMatch(/^key\.option: /);
    expect(() => bodyOf(broken)).toThrow(expect.objectContaining({ code: 'question_invalid', status: 422 }));
    expect(() => bodyOf(broken)).toThrow(new RegExp(`question ${broken.id} `));
    const notJson = readStoredQuestion(
      { id: 1, kind: '', type: QuestionType.single, content: '{', answer_key: '{}' },
      'major',
    );
    expect(notJson.problem).toBe('content: not valid JSON');
    expect(stored(QuestionType.single, { stem: 's', options }, { option: 'A' }, 5, 'evaluation').problem).toMatch(
      /^kind: /,
    );
    expect(stored(QuestionType.single, { stem: 's', options }, { option: 'A' }, 5, 'major', 'gradient').problem).toBe(
      'type: gradient questions are type 11, not 1',
    );
    expect(stored(QuestionType.single, { stem: 's', options }, { option: 'A' }, 5, 'major', 'essay').problem).toMatch(
      /^kind: no question kind 'essay'/,
    );
  });
});

describe('automatic points', () => {
  it('scores answers by the kind’s rule and programming from its judged submit', () => {
    const single = stored(QuestionType.single, { stem: 's', options }, { option: 'B' }, 5);
    expect(automaticPoints(single, { kind: 'choice', option: 'B' }, undefined)).toBe(5);
    expect(automaticPoints(single, null, undefined)).toBe(0);
    const code = stored(
      QuestionType.programming,
      { stem: 's', languages: ['c'] },
      { cases: [{ input: '', output: '' }] },
      20,
    );
    expect(automaticPoints(code, null, { passed: 1, total: 4 })).toBe(5);
    expect(automaticPoints(code, null, undefined)).toBe(0);
  });

  it('gives a question that no longer parses nothing instead of failing', () => {
    const broken = stored(QuestionType.single, { stem: 's' }, { option: 'B' }, 5);
    expect(automaticPoints(broken, { kind: 'choice', option: 'B' }, undefined)).toBe(0);
  });

  it('leaves Q&A and programming Q&A to graders', () => {
    expect(gradedByPerson(stored(QuestionType.qa, { stem: 's' }, {}))).toBe(true);
    expect(gradedByPerson(stored(QuestionType.programmingQa, { stem: 's', languages: ['cpp'] }, {}))).toBe(true);
    expect(gradedByPerson(stored(QuestionType.programming, { stem: 's', languages: ['c'] }, { cases: [] }))).toBe(
      false,
    );
  });

  it('reads stored answers, ignoring ones that no longer parse', () => {
    expect(storedAnswer('{"kind":"choice","option":"A"}')).toEqual({ kind: 'choice', option: 'A' });
    expect(storedAnswer('{"kind":"nope"}')).toBeNull();
    expect(storedAnswer('not json')).toBeNull();
    expect(storedAnswer(undefined)).toBeNull();
  });
});

describe("how graders' marks decide an answer", () => {
  const single = { blind: false, double_marking: false, margin: 0 };
  const double = { blind: false, double_marking: true, margin: 2 };
  const mark = (total: number, reconciling = false) => ({ total, reconciling });

  it('one grader: the mark, never more than the question is worth; none yet: waiting', () => {
    expect(manualFinal([], single, 10)).toBeNull();
    expect(manualFinal([mark(7.5)], single, 10)).toBe(7.5);
    expect(manualFinal([mark(12)], single, 10)).toBe(10);
  });

  it('double marking: waits for the second mark, the mean within the margin (its edge included), else waits', () => {
    expect(manualFinal([mark(8)], double, 10)).toBeNull();
    expect(manualFinal([mark(8), mark(10)], double, 10)).toBe(9);
    expect(manualFinal([mark(3.5), mark(4)], double, 10)).toBe(3.75);
    expect(manualFinal([mark(5), mark(7.01)], double, 10)).toBeNull();
  });

  it('a reconciling mark decides, whatever the two marks were', () => {
    expect(manualFinal([mark(2), mark(9), mark(6, true)], double, 10)).toBe(6);
    expect(manualFinal([mark(2), mark(9), mark(11, true)], double, 10)).toBe(10);
  });
});
