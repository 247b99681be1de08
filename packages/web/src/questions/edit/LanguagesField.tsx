import {
  enumOptions,
  enumText,
  LANGUAGE_IDS,
  LANGUAGES,
  PROGRAMMING_LANGUAGE_TEXTS,
  type LanguageId,
  type TextLanguage,
} from '@examhall/contract';
import { Select } from 'antd';
import { useI18n } from '../../i18n/index.js';
import type { CodeContentDraft } from '../drafts.js';
import type { Problem } from '../problems.js';
import { Field } from './FieldProblems.js';

/** A language's name in the page's language. */
export const languageName = (id: LanguageId, lang: TextLanguage) => enumText(PROGRAMMING_LANGUAGE_TEXTS, id, lang);

/** Language choices in the contract's order. */
export const languageOptions = (lang: TextLanguage) => enumOptions(PROGRAMMING_LANGUAGE_TEXTS, LANGUAGE_IDS, lang);

/** The languages a candidate may answer in; dropping one drops its starter code too. */
export function LanguagesField({
  content,
  onChange,
  problems,
  idPrefix,
}: {
  content: CodeContentDraft;
  onChange: (next: Pick<CodeContentDraft, 'languages' | 'starter'>) => void;
  problems: readonly Problem[];
  idPrefix: string;
}) {
  const { t, lang } = useI18n();
  const id = `${idPrefix}-languages`;
  const order = LANGUAGES.map((l) => l.id as LanguageId);
  return (
    <Field label={t('qedit.languages')} field="content.languages" problems={problems} htmlFor={id}>
      <Select
        id={id}
        mode="multiple"
        value={content.languages}
        options={languageOptions(lang)}
        optionFilterProp="label"
        onChange={(next: LanguageId[]) => {
          const languages = [...next].sort((a, b) => order.indexOf(a) - order.indexOf(b));
          const starter = Object.fromEntries(
            Object.entries(content.starter ?? {}).filter(([lang]) => languages.includes(lang as LanguageId)),
          );
          onChange({ languages, starter });
        }}
        data-testid="languages-select"
      />
    </Field>
  );
}
