import { describe, expect, it } from 'vitest';
import {
  API_TOKEN_SCOPE_TEXTS,
  AUDIT_ACTION_TEXTS,
  AUDIT_OBJECT_TEXTS,
  enumOptions,
  enumTextOf,
  GRADING_STATE_TEXTS,
  JOB_KIND_TEXTS,
  JOB_STATE_TEXTS,
  OTHER_TEXT,
  OUTCOME_TEXTS,
  outcomeOf,
  PROGRAMMING_LANGUAGE_TEXTS,
  ROLE_TEXTS,
  SECTION_SCORE_TEXTS,
  SECTION_TEXTS,
  type EnumTexts,
} from './enumTexts.js';

const FAMILIES: Record<string, EnumTexts<string>> = {
  role: ROLE_TEXTS,
  section: SECTION_TEXTS,
  sectionScore: SECTION_SCORE_TEXTS,
  jobKind: JOB_KIND_TEXTS,
  jobState: JOB_STATE_TEXTS,
  outcome: OUTCOME_TEXTS,
  gradingState: GRADING_STATE_TEXTS,
  auditAction: AUDIT_ACTION_TEXTS,
  auditObject: AUDIT_OBJECT_TEXTS,
  apiTokenScope: API_TOKEN_SCOPE_TEXTS,
};

describe('enumerated values in words', () => {
  it.each(Object.entries(FAMILIES))(
    '%s: one distinct text per value in each language, never the value itself',
    (_, texts) => {
      for (const lang of ['zh-CN', 'en-US'] as const) {
        const words = Object.values(texts).map((t) => t[lang].trim());
        expect(words.every((w) => w.length > 0)).toBe(true);
        expect(new Set(words).size).toBe(words.length);
        for (const [value, t] of Object.entries(texts)) expect(t[lang]).not.toBe(value);
      }
      // The Chinese text is Chinese (a product name such as "API" or "Webhook" may stand inside it, or alone).
      for (const [value, t] of Object.entries(texts)) {
        expect(/[\u4e00-\u9fff]/.test(t['zh-CN']) || t['zh-CN'] === t['en-US'], value).toBe(true);
      }
    },
  );

  it('names languages by their names, plain text in words', () => {
    expect(PROGRAMMING_LANGUAGE_TEXTS.cpp).toEqual({ 'zh-CN': 'C++', 'en-US': 'C++' });
    expect(PROGRAMMING_LANGUAGE_TEXTS.plaintext['zh-CN']).toBe('纯文本');
  });

  it('gives options whose labels are the texts, and a value from outside the type as "other", never itself', () => {
    expect(enumOptions(ROLE_TEXTS, ['admin', 'grader'], 'zh-CN')).toEqual([
      { value: 'admin', label: '管理员' },
      { value: 'grader', label: '阅卷人' },
    ]);
    expect(enumTextOf(AUDIT_ACTION_TEXTS, 'exam.publish', 'zh-CN', OTHER_TEXT)).toBe('发布考试');
    expect(enumTextOf(AUDIT_ACTION_TEXTS, 'exam.teleport', 'en-US', OTHER_TEXT)).toBe('Other');
    expect(enumTextOf(AUDIT_ACTION_TEXTS, 'toString', 'en-US', OTHER_TEXT)).toBe('Other');
  });

  it("reads a result's outcome", () => {
    expect([true, false, null].map(outcomeOf)).toEqual(['passed', 'failed', 'undecided']);
  });
});
