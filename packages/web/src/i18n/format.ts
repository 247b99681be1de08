import type { ErrorCode } from '@examhall/contract';
import type { ClientErrorCode } from '../api/clientErrorCode.js';
import { zh, type MessageKey } from './zh.js';

/** Languages the app speaks; zh-CN is the default. */
export const LANGUAGES = ['zh-CN', 'en-US'] as const;
/** A language the app speaks. */
export type Language = (typeof LANGUAGES)[number];

/** Where the chosen language is remembered. */
export const LANGUAGE_STORAGE_KEY = 'examhall.lang';

/**
 * Every text loaded so far per language: Chinese, the default, comes with the app; English is a chunk of its own,
 * fetched when it is first chosen (see loadLanguage), so a page in Chinese does not download it; the console's texts
 * in both once its pages load.
 */
const dictionaries: Record<Language, Partial<Record<MessageKey, string>>> = { 'zh-CN': { ...zh }, 'en-US': {} };
/** The languages whose base texts are in `dictionaries`. */
const loaded = new Set<Language>(['zh-CN']);

/** Loads a language's base texts if they are not yet loaded. Rejects when the chunk cannot be fetched. */
export async function loadLanguage(lang: Language): Promise<void> {
  if (loaded.has(lang)) return;
  const { en } = await import('./en.js');
  Object.assign(dictionaries['en-US'], en);
  loaded.add('en-US');
}

/** True once a language's base texts are loaded (English after loadLanguage). */
export function isLanguageLoaded(lang: Language): boolean {
  return loaded.has(lang);
}

/** Adds texts loaded with a part of the app (the console's, see console.ts). */
export function addMessages(texts: Readonly<Record<Language, Partial<Record<MessageKey, string>>>>): void {
  for (const lang of LANGUAGES) Object.assign(dictionaries[lang], texts[lang]);
}

/** Parameters filled into a message's `{name}` placeholders. */
export type MessageParams = Readonly<Record<string, string | number>>;

/** The message `key` in `lang` with its placeholders filled. */
export function translate(lang: Language, key: MessageKey, params?: MessageParams): string {
  // A key of a part not loaded yet shows as itself rather than breaking the page.
  const text = dictionaries[lang][key] ?? key;
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

/** A stored or requested language, or the default when it is not one we speak. */
export function toLanguage(value: string | null | undefined): Language {
  return (LANGUAGES as readonly string[]).includes(value ?? '') ? (value as Language) : 'zh-CN';
}

/**
 * The language to start in when none was chosen here before: the first of the browser's preferred languages that
 * we speak (any Chinese reads Chinese, any English English), else Chinese.
 */
export function preferredLanguage(preferred: readonly string[]): Language {
  for (const tag of preferred) {
    const base = tag.toLowerCase().split('-')[0];
    if (base === 'zh') return 'zh-CN';
    if (base === 'en') return 'en-US';
  }
  return 'zh-CN';
}

/**
 * The dictionary key of a failure's text: every catalogue and client code has one (checked by the compiler), the
 * staff-only single sign-on ones in the console's texts.
 */
export function errorKey(code: ErrorCode | ClientErrorCode): MessageKey {
  return `error.${code}` satisfies MessageKey;
}
