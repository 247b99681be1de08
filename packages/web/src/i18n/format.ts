import type { ErrorCode } from '@examhall/contract';
import type { ClientErrorCode } from '../api/client.js';
import { en } from './en.js';
import { zh, type BaseMessageKey, type MessageKey } from './zh.js';

/** Languages the app speaks; zh-CN is the default. */
export const LANGUAGES = ['zh-CN', 'en-US'] as const;
/** A language the app speaks. */
export type Language = (typeof LANGUAGES)[number];

/** Where the chosen language is remembered. */
export const LANGUAGE_STORAGE_KEY = 'examhall.lang';

/** Every text loaded so far per language: the base dictionaries, and the console's once its pages load. */
const dictionaries: Record<Language, Partial<Record<MessageKey, string>>> = { 'zh-CN': { ...zh }, 'en-US': { ...en } };

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

/** The dictionary key of a failure's text: every catalogue and client code has one (checked by the compiler). */
export function errorKey(code: ErrorCode | ClientErrorCode): BaseMessageKey {
  return `error.${code}` satisfies BaseMessageKey;
}
