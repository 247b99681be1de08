import { LANGUAGES, type LanguageId } from '@examhall/contract';
import { Select } from 'antd';
import { useI18n } from '../../i18n/index.js';
import type { CodeContentDraft } from '../drafts.js';
import type { Problem } from '../problems.js';
import { Field } from './FieldProblems.js';

/** The contract's language name. */
export const languageName = (id: string) => LANGUAGES.find((l) => l.id === id)?.name ?? id;

/** Language choices in the contract's order. */
export const LANGUAGE_OPTIONS = LANGUAGES.map((l) => ({ value: l.id as LanguageId, label: l.name }));

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
  const { t } = useI18n();
  const id = `${idPrefix}-languages`;
  const order = LANGUAGES.map((l) => l.id as LanguageId);
  return (
    <Field label={t('qedit.languages')} field="content.languages" problems={problems} htmlFor={id}>
      <Select
        id={id}
        mode="multiple"
        value={content.languages}
        options={LANGUAGE_OPTIONS}
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
