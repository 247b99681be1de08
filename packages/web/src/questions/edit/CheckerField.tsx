import { BUILTIN_CHECKERS, type LanguageId } from '@examhall/contract';
import { Input, Radio, Select, Space } from 'antd';
import { useI18n, type MessageKey } from '../../i18n/index.js';
import type { CheckerDraft } from '../drafts.js';
import type { Problem } from '../problems.js';
import { Field } from './FieldProblems.js';
import { languageOptions } from './LanguagesField.js';
import { SourceEditor } from './SourceEditor.js';

/** A built-in checker's name split into its kind and its tolerance (`float:1e-6` → float, 1e-6). */
function splitName(name: string): { kind: string; tolerance: string } {
  const [kind = 'default', ...rest] = name.split(':');
  return { kind, tolerance: rest.join(':') };
}

/** How outputs are compared: one of the judge's built-in checkers, or a checker program of the author's. */
export function CheckerField({
  checker,
  languages,
  onChange,
  problems,
  idPrefix,
}: {
  checker: CheckerDraft;
  /** The offered languages: a new custom checker starts in the first. */
  languages: readonly LanguageId[];
  onChange: (checker: CheckerDraft) => void;
  problems: readonly Problem[];
  idPrefix: string;
}) {
  const { t, lang } = useI18n();
  const custom = typeof checker !== 'string';
  return (
    <Field label={t('qedit.checker')} field="key.checker" problems={problems}>
      <Space orientation="vertical" style={{ width: '100%' }}>
        <Radio.Group
          value={custom ? 'custom' : 'builtin'}
          onChange={(e) =>
            onChange(e.target.value === 'custom' ? { language: languages[0] ?? 'cpp', source: '' } : 'default')
          }
          data-testid="checker-mode"
        >
          <Radio value="builtin">{t('qedit.checkerBuiltin')}</Radio>
          <Radio value="custom">{t('qedit.checkerCustom')}</Radio>
        </Radio.Group>
        {typeof checker === 'string' ? (
          <BuiltinChecker name={checker} onChange={onChange} idPrefix={idPrefix} />
        ) : (
          <>
            <Space>
              <label htmlFor={`${idPrefix}-checker-lang`}>{t('qedit.checkerLanguage')}</label>
              <Select
                id={`${idPrefix}-checker-lang`}
                value={checker.language}
                options={languageOptions(lang)}
                showSearch={{ optionFilterProp: 'label' }}
                onChange={(language: LanguageId) => onChange({ ...checker, language })}
                style={{ minWidth: 160 }}
              />
            </Space>
            <div className="ant-form-item-extra">{t('qedit.checkerHint')}</div>
            <SourceEditor
              language={checker.language}
              code={checker.source}
              onChange={(source) => onChange({ ...checker, source })}
              label={t('qedit.checkerSource')}
              testId="checker-source"
            />
          </>
        )}
      </Space>
    </Field>
  );
}

/** A built-in checker and, for floats, its tolerance. */
function BuiltinChecker({
  name,
  onChange,
  idPrefix,
}: {
  name: string;
  onChange: (name: string) => void;
  idPrefix: string;
}) {
  const { t } = useI18n();
  const { kind, tolerance } = splitName(name);
  return (
    <Space wrap>
      <Select
        aria-label={t('qedit.checker')}
        value={kind}
        onChange={(next: string) => onChange(next)}
        options={BUILTIN_CHECKERS.map((k) => ({ value: k, label: t(`qedit.checker.${k}` satisfies MessageKey) }))}
        style={{ minWidth: 280 }}
        data-testid="checker-builtin"
      />
      {kind === 'float' && (
        <Input
          id={`${idPrefix}-tolerance`}
          aria-label={t('qedit.checkerEps')}
          placeholder={t('qedit.checkerEps')}
          value={tolerance}
          onChange={(e) => onChange(e.target.value.trim() === '' ? 'float' : `float:${e.target.value.trim()}`)}
          style={{ minWidth: 320 }}
          data-testid="checker-tolerance"
        />
      )}
    </Space>
  );
}
