/**
 * The app's two languages: a context that holds the choice, remembers it and tells the page and the API (antd's
 * pages read it in shell/AntdScope.tsx).
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { configureClient } from '../api/client.js';
import {
  isLanguageLoaded,
  LANGUAGE_STORAGE_KEY,
  loadLanguage,
  preferredLanguage,
  toLanguage,
  translate,
  type Language,
  type MessageParams,
} from './format.js';
import type { MessageKey } from './zh.js';

export { LANGUAGES, type Language } from './format.js';
export type { MessageKey } from './zh.js';

interface I18nValue {
  lang: Language;
  setLang: (lang: Language) => void;
  t: (key: MessageKey, params?: MessageParams) => string;
}

const I18nContext = createContext<I18nValue | null>(null);

function storedLanguage(): Language {
  try {
    const stored = localStorage.getItem(LANGUAGE_STORAGE_KEY);
    return stored ? toLanguage(stored) : preferredLanguage(navigator.languages ?? [navigator.language]);
  } catch {
    // Storage can be off (private mode, policies); the default language still works.
    return 'zh-CN';
  }
}

/**
 * Loads the texts of the language this browser chose before (or prefers); call before the first render. When they cannot be
 * fetched the app starts in the default language.
 */
export async function loadStoredLanguage(): Promise<void> {
  await loadLanguage(storedLanguage()).catch((e: unknown) => console.warn('language texts not loaded', e));
}

function applyLanguage(lang: Language): void {
  document.documentElement.lang = lang;
  configureClient({ getLanguage: () => lang });
}

/** Provides the language to the app. */
export function I18nProvider({ children }: { children: ReactNode }) {
  const [lang, setLangState] = useState<Language>(() => {
    const stored = storedLanguage();
    const initial = isLanguageLoaded(stored) ? stored : 'zh-CN';
    applyLanguage(initial);
    return initial;
  });

  useEffect(() => applyLanguage(lang), [lang]);

  const setLang = useCallback((next: Language) => {
    // The texts first, then the switch: the page never shows a language half loaded.
    loadLanguage(next).then(
      () => {
        try {
          localStorage.setItem(LANGUAGE_STORAGE_KEY, next);
        } catch {
          // Not remembered, but still switched for this visit.
        }
        setLangState(next);
      },
      (e: unknown) => console.warn('language texts not loaded', e),
    );
  }, []);

  const value = useMemo<I18nValue>(
    () => ({ lang, setLang, t: (key, params) => translate(lang, key, params) }),
    [lang, setLang],
  );

  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

/** The current language, its setter and the translate function. */
export function useI18n(): I18nValue {
  const value = useContext(I18nContext);
  if (!value) throw new Error('useI18n needs an I18nProvider above it');
  return value;
}
