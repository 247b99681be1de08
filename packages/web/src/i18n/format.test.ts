import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '@examhall/contract';
import { consoleEn } from './console.en.js';
import { consoleZh } from './console.zh.js';
import { en } from './en.js';
import { explanationsEn } from './explanations.en.js';
import { explanationsZh } from './explanations.zh.js';
import { errorKey, isLanguageLoaded, loadLanguage, preferredLanguage, toLanguage, translate } from './format.js';
import { ssoEn } from './sso.en.js';
import { ssoZh } from './sso.zh.js';
import { zh } from './zh.js';

describe('dictionaries', () => {
  const pairs = [
    { name: 'base', zh: zh as Record<string, string>, en: en as Record<string, string> },
    { name: 'console', zh: consoleZh as Record<string, string>, en: consoleEn as Record<string, string> },
    {
      name: 'explanations',
      zh: explanationsZh as Record<string, string>,
      en: explanationsEn as Record<string, string>,
    },
  ];

  it.each(pairs)('$name: have the same keys and no empty strings', (pair) => {
    expect(Object.keys(pair.en).sort()).toEqual(Object.keys(pair.zh).sort());
    for (const text of [...Object.values(pair.zh), ...Object.values(pair.en)]) expect(text.trim()).not.toBe('');
  });

  it.each(pairs)('$name: use the same placeholders in both languages', (pair) => {
    const holes = (s: string) => (s.match(/\{\w+\}/g) ?? []).sort();
    for (const key of Object.keys(pair.zh)) expect(holes(pair.en[key]!)).toEqual(holes(pair.zh[key]!));
  });

  it('keep the console apart from the base texts', () => {
    expect(Object.keys(zh).filter((k) => k in consoleZh)).toEqual([]);
  });
});

describe('translate', () => {
  it('has Chinese with the app and English once loaded', async () => {
    expect(isLanguageLoaded('zh-CN')).toBe(true);
    expect(isLanguageLoaded('en-US')).toBe(false);
    expect(translate('en-US', 'common.minutes', { n: 60 })).toBe('common.minutes');
    await loadLanguage('en-US');
    expect(isLanguageLoaded('en-US')).toBe(true);
    expect(translate('en-US', 'common.minutes', { n: 60 })).toBe('60 min');
  });

  it("shows a console key as itself until the console's texts load, and their text after", async () => {
    expect(translate('en-US', 'console.common.save')).toBe('console.common.save');
    await import('./console.js');
    expect(translate('en-US', 'console.common.save')).toBe(consoleEn['console.common.save']);
    expect(translate('zh-CN', 'console.common.save')).toBe(consoleZh['console.common.save']);
  });

  it('fills placeholders and leaves unknown ones', () => {
    expect(translate('en-US', 'common.minutes', { n: 60 })).toBe('60 min');
    expect(translate('zh-CN', 'common.minutes')).toBe('{n} 分钟');
  });

  it('falls back to Chinese for unknown languages', () => {
    expect(toLanguage('fr')).toBe('zh-CN');
    expect(toLanguage(null)).toBe('zh-CN');
    expect(toLanguage('en-US')).toBe('en-US');
    // With nothing chosen before, the browser's preferred languages decide; one we do not speak falls through.
    expect(preferredLanguage(['fr-FR', 'en-GB', 'zh-CN'])).toBe('en-US');
    expect(preferredLanguage(['zh-TW', 'en'])).toBe('zh-CN');
    expect(preferredLanguage(['fr', 'de'])).toBe('zh-CN');
    expect(preferredLanguage([])).toBe('zh-CN');
  });
});

describe('failure texts', () => {
  it('exist in both languages for every catalogue and client code', () => {
    const codes = [...ERROR_CODES, 'timeout', 'network_error', 'invalid_response', 'http_error'] as const;
    for (const code of codes) {
      // Single sign-on's come with the console's texts: only the staff login page shows them.
      const [zhTexts, enTexts]: [Record<string, string>, Record<string, string>] = code.startsWith('sso_')
        ? [ssoZh, ssoEn]
        : [zh, en];
      expect(zhTexts[errorKey(code)], code).toBeTruthy();
      expect(enTexts[errorKey(code)], code).toBeTruthy();
    }
  });
});
