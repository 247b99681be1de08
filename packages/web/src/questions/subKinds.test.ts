import { QUESTION_REGISTRY, SUB_QUESTION_KINDS, SUB_QUESTION_TYPES } from '@examhall/contract';
import { describe, expect, it } from 'vitest';
import { SUB_KINDS, subKindOf, subTypeOf } from './subKinds.js';

describe('sub-question kinds', () => {
  it("are the contract's: every kind whose entry says subQuestion, and only those", () => {
    expect([...SUB_KINDS]).toEqual([...SUB_QUESTION_KINDS]);
  });

  it('map to and from their type ids', () => {
    for (const kind of SUB_KINDS) {
      expect(subKindOf(subTypeOf(kind))).toBe(kind);
      expect(SUB_QUESTION_TYPES).toContain(QUESTION_REGISTRY[kind].type);
    }
  });
});
