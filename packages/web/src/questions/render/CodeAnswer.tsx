import { enumText, LANGUAGES, PROGRAMMING_LANGUAGE_TEXTS, type LanguageId } from '@examhall/contract';
import { Select, Space, Spin, Tag, Typography } from 'antd';
import { lazy, Suspense } from 'react';
import { useI18n } from '../../i18n/index.js';
import { JudgePanel } from '../../exam/questions/JudgePanel.js';
import { useJudge } from '../../exam/questions/useJudge.js';
import type { RendererProps as Props } from './types.js';

const CodeEditor = lazy(() => import('../../exam/questions/CodeEditor.js'));

/** A code answer: language, CodeMirror, the judge panel and the samples (programming and programming Q&A). */
export function CodeAnswer({ subject, value, onChange, ctx }: Props) {
  const { t, lang } = useI18n();
  const offered = (subject.languages?.length ? subject.languages : LANGUAGES.map((l) => l.id)) as LanguageId[];
  const language: LanguageId = value?.kind === 'code' ? value.language : offered[0]!;
  // The author's starter code for the language, else an empty editor.
  const starter = (id: LanguageId) => subject.starter?.[id] ?? '';
  const code = value?.kind === 'code' ? value.code : starter(language);
  const name = (id: LanguageId) => enumText(PROGRAMMING_LANGUAGE_TEXTS, id, lang);

  const judgeProps = {
    examId: ctx.examId,
    subject,
    language,
    code,
    save: async (submit: boolean) => {
      // A submit hands the code in, so an untouched starter becomes the answer too; a run of it answers nothing.
      if (submit && value?.kind !== 'code') onChange({ kind: 'code', language, code });
      await ctx.saveNow();
    },
    onExamFinished: ctx.examFinished,
  };
  const judge = useJudge(judgeProps);

  const switchLanguage = (next: LanguageId) => {
    // Untouched starter code follows the language; the candidate's own code stays.
    const untouched = code.trim() === '' || code === starter(language);
    onChange({ kind: 'code', language: next, code: untouched ? starter(next) : code });
  };

  return (
    <div>
      <Space wrap style={{ marginBottom: 8 }}>
        <label htmlFor={`lang-${subject.id}`}>{t('exam.code.language')}</label>
        <Select
          id={`lang-${subject.id}`}
          value={language}
          onChange={switchLanguage}
          options={offered.map((id) => ({ value: id, label: name(id) }))}
          style={{ minWidth: 160 }}
          data-testid="code-language"
        />
        {subject.time_limit_ms !== undefined && subject.memory_limit_mb !== undefined && (
          <Tag>{t('exam.code.limits', { ms: subject.time_limit_ms, mb: subject.memory_limit_mb })}</Tag>
        )}
      </Space>
      <Suspense fallback={<Spin tip={t('exam.code.loading')} />}>
        <CodeEditor
          key={subject.id}
          language={language}
          code={code}
          label={t('exam.code.editor', { lang: name(language) })}
          onChange={(next) => {
            if (next !== code) onChange({ kind: 'code', language, code: next });
          }}
          onPasteBlocked={ctx.allowPaste ? null : ctx.warnPaste}
          onRun={judge.runDefault}
        />
      </Suspense>
      <Typography.Paragraph type="secondary" style={{ marginTop: 4 }}>
        {t('exam.code.keyboard')}
      </Typography.Paragraph>
      <JudgePanel {...judgeProps} judge={judge} />
      {subject.samples && subject.samples.length > 0 && (
        <section aria-label={t('exam.code.samples')} data-testid="code-samples">
          <Typography.Title level={3} style={{ fontSize: 15 }}>
            {t('exam.code.samples')}
          </Typography.Title>
          {subject.samples.map((s, i) => (
            <div key={i} className="sample">
              <Typography.Text strong>{t('exam.code.sample', { n: i + 1 })}</Typography.Text>
              <div className="sample-io">
                <div>
                  <div>{t('exam.code.input')}</div>
                  <pre>{s.input}</pre>
                </div>
                <div>
                  <div>{t('exam.code.output')}</div>
                  <pre>{s.output}</pre>
                </div>
              </div>
            </div>
          ))}
        </section>
      )}
    </div>
  );
}
