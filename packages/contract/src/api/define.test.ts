import { describe, expect, it } from 'vitest';
import { idFields } from '../schemas/ids.js';
import { candidateExamRef, type CallDef } from './define.js';
import { api } from './index.js';

const candidateCalls = (Object.entries(api) as [string, CallDef][]).filter(([, c]) => c.auth === 'candidate');

describe('candidateExamRef', () => {
  it('names the exam of every candidate call that takes an id, so rules of an exam reach each of its calls', () => {
    for (const [name, c] of candidateCalls) {
      const ids = [...idFields(c.query), ...idFields(c.body)];
      if (ids.length === 0) continue;
      expect(candidateExamRef(c), `${name} takes an id but names no exam: declare its examRef`).not.toBeNull();
    }
  });

  it('reads exam_id by default, /exam/show by its id and an invitation by its anid', () => {
    expect(candidateExamRef(api.answer)).toEqual({ part: 'body', field: 'exam_id', kind: 'exam' });
    expect(candidateExamRef(api.orderList)).toEqual({ part: 'query', field: 'exam_id', kind: 'exam' });
    expect(candidateExamRef(api.examShow)).toEqual({ part: 'query', field: 'id', kind: 'exam' });
    expect(candidateExamRef(api.anidInfo)).toEqual({ part: 'query', field: 'anid', kind: 'invitation' });
    expect(candidateExamRef(api.faceRecognize)).toEqual({ part: 'body', field: 'exam_id', kind: 'exam' });
  });

  it('answers null for calls on no exam and for other clients', () => {
    expect(candidateExamRef(api.examIndex)).toBeNull();
    expect(candidateExamRef(api.getInfo)).toBeNull();
    expect(candidateExamRef(api.examEditorDetail)).toBeNull();
  });
});
