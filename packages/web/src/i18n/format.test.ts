import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '@examhall/contract';
import { en } from './en.js';
import { errorKey, toLanguage, translate } from './format.js';
import { zh } from './zh.js';

describe('dictionaries', () => {
  it('have the same keys and no empty strings', () => {
    expect(Object.keys(en).sort()).toEqual(Object.keys(zh).sort());
    for (const text of [...Object.values(zh), ...Object.values(en)]) expect(text.trim()).not.toBe('');
  });

  it('use the same placeholders in both languages', () => {
    const holes = (s: string) => (s.match(/\{\w+\}/g) ?? []).sort();
    for (const key of Object.keys(zh) as (keyof typeof zh)[]) expect(holes(en[key])).toEqual(holes(zh[key]));
  });
});

describe('translate', () => {
  it('fills placeholders and leaves unknown ones', () => {
    expect(translate('en-US', 'common.minutes', { n: 60 })).toBe('60 min');
    expect(translate('zh-CN', 'common.minutes')).toBe('{n} 分钟');
  });

  it('falls back to Chinese for unknown languages', () => {
    expect(toLanguage('fr')).toBe('zh-CN');
    expect(toLanguage(null)).toBe('zh-CN');
    expect(toLanguage('en-US')).toBe('en-US');
  });
});

describe('failure texts', () => {
  it('exist in both languages for every catalogue and client code', () => {
    const codes = [...ERROR_CODES, 'timeout', 'network_error', 'invalid_response', 'http_error'] as const;
    for (const code of codes) {
      expect(zh[errorKey(code)]).toBeTruthy();
      expect(en[errorKey(code)]).toBeTruthy();
    }
  });
});
