import { PlusOutlined } from '@ant-design/icons';
import type { LanguageId } from '@examhall/contract';
import { Button, Select, Space } from 'antd';
import { useI18n } from '../../i18n/index.js';
import type { SourceDraft } from '../drafts.js';
import type { Problem } from '../problems.js';
import { Field } from './FieldProblems.js';
import { languageName, languageOptions } from './LanguagesField.js';
import { SourceEditor } from './SourceEditor.js';
import { VerifyPanel } from './VerifyPanel.js';
import type { EditorContext } from './types.js';

/** The reference solution (language and source) and its check by the judge on every case. */
export function ReferenceField({
  reference,
  languages,
  onChange,
  problems,
  ctx,
  idPrefix,
}: {
  reference: SourceDraft | undefined;
  /** The offered languages: a new solution starts in the first. */
  languages: readonly LanguageId[];
  onChange: (reference: SourceDraft | undefined) => void;
  problems: readonly Problem[];
  ctx: EditorContext;
  idPrefix: string;
}) {
  const { t, lang } = useI18n();
  return (
    <Field label={t('qedit.reference')} field="key.reference" problems={problems} extra={t('qedit.referenceHint')}>
      {reference === undefined ? (
        <Button
          icon={<PlusOutlined aria-hidden />}
          onClick={() => onChange({ language: languages[0] ?? 'cpp', source: '' })}
          data-testid="reference-add"
        >
          {t('qedit.referenceAdd')}
        </Button>
      ) : (
        <Space orientation="vertical" style={{ width: '100%' }}>
          <Space wrap>
            <label htmlFor={`${idPrefix}-reference-lang`}>{t('qedit.referenceLanguage')}</label>
            <Select
              id={`${idPrefix}-reference-lang`}
              value={reference.language}
              options={languageOptions(lang)}
              showSearch={{ optionFilterProp: 'label' }}
              onChange={(language: LanguageId) => onChange({ ...reference, language })}
              style={{ minWidth: 160 }}
              data-testid="reference-language"
            />
            <Button danger onClick={() => onChange(undefined)}>
              {t('qedit.referenceRemove')}
            </Button>
          </Space>
          <SourceEditor
            language={reference.language}
            code={reference.source}
            onChange={(source) => onChange({ ...reference, source })}
            label={t('qedit.referenceEditor', { lang: languageName(reference.language, lang) })}
            testId="reference-source"
          />
        </Space>
      )}
      <VerifyPanel hasReference={reference !== undefined && reference.source.trim() !== ''} ctx={ctx} />
    </Field>
  );
}
