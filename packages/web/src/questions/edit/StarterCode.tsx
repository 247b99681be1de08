import { LANGUAGE_SKELETONS, type LanguageId } from '@examhall/contract';
import { Button, Space, Tabs } from 'antd';
import { useI18n } from '../../i18n/index.js';
import type { CodeContentDraft } from '../drafts.js';
import type { Problem } from '../problems.js';
import { Field } from './FieldProblems.js';
import { languageName } from './LanguagesField.js';
import { SourceEditor } from './SourceEditor.js';

/** Starter code per offered language, one tab each; an empty one leaves the candidate's editor empty. */
export function StarterCode({
  content,
  onChange,
  problems,
}: {
  content: CodeContentDraft;
  onChange: (starter: Partial<Record<LanguageId, string>>) => void;
  problems: readonly Problem[];
}) {
  const { t, lang: pageLang } = useI18n();
  const starter = content.starter ?? {};
  const set = (lang: LanguageId, code: string) => {
    const next = { ...starter };
    if (code === '') delete next[lang];
    else next[lang] = code;
    onChange(next);
  };
  return (
    <Field label={t('qedit.starter')} field="content.starter" problems={problems} extra={t('qedit.starterHint')}>
      <Tabs
        size="small"
        destroyOnHidden
        items={content.languages.map((lang) => ({
          key: lang,
          label: languageName(lang, pageLang),
          children: (
            <Space orientation="vertical" style={{ width: '100%' }}>
              <SourceEditor
                language={lang}
                code={starter[lang] ?? ''}
                onChange={(code) => set(lang, code)}
                label={t('qedit.starterOf', { lang: languageName(lang, pageLang) })}
                testId={`starter-${lang}`}
              />
              <Space>
                <Button size="small" onClick={() => set(lang, LANGUAGE_SKELETONS[lang])}>
                  {t('qedit.useTemplate')}
                </Button>
                <Button size="small" onClick={() => set(lang, '')} disabled={!starter[lang]}>
                  {t('qedit.clearCode')}
                </Button>
              </Space>
            </Space>
          ),
        }))}
      />
    </Field>
  );
}
