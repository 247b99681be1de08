import { PaperClipOutlined, UploadOutlined } from '@ant-design/icons';
import {
  api,
  ANSWER_FILE_MAX_BYTES,
  LANGUAGE_TEMPLATES,
  LANGUAGES,
  type AnswerValue,
  type LanguageId,
  type Subject,
} from '@examhall/contract';
import { Alert, Button, Select, Space, Spin, Tag, Typography } from 'antd';
import { lazy, Suspense, useRef, useState } from 'react';
import { errorText, upload } from '../../api/client.js';
import { useI18n } from '../../i18n/index.js';
import { MULTI_PICK, SINGLE_PICK, type SubValue } from '../answers.js';
import { BlanksInput } from './BlanksInput.js';
import { MultiChoice, SingleChoice } from './ChoiceInput.js';
import { Html } from './Html.js';
import { JudgePanel, useJudge } from './JudgePanel.js';
import { ListeningPlayer } from './ListeningPlayer.js';

const RichTextEditor = lazy(() => import('./RichTextEditor.js'));
const CodeEditor = lazy(() => import('./CodeEditor.js'));

/** What a question needs from the exam page. */
export interface QuestionContext {
  examId: number;
  allowPaste: boolean;
  allowUpload: boolean;
  /** Says that pasting is not allowed. */
  warnPaste: () => void;
  /** Sends every stored change now and waits for the receipts (or a time limit), before code is judged. */
  saveNow: () => Promise<void>;
  /** The server said the attempt is over: the page moves to the result. */
  examFinished: () => void;
}

interface Props {
  subject: Subject;
  value: AnswerValue | undefined;
  onChange: (value: AnswerValue) => void;
  ctx: QuestionContext;
}

/** The answer area of a question, one renderer per type. */
export function QuestionBody({ subject, value, onChange, ctx }: Props) {
  const { t } = useI18n();
  const pasteBlocked = ctx.allowPaste ? null : ctx.warnPaste;
  switch (subject.type) {
    case 1:
    case 7:
    case 11:
    case 2:
    case 3:
    case 4:
      return (
        <SubInput
          subject={subject}
          value={value as SubValue | undefined}
          onChange={onChange}
          pasteBlocked={pasteBlocked}
          label={t('exam.options')}
        />
      );
    case 5:
      return <QaAnswer subject={subject} value={value} onChange={onChange} ctx={ctx} />;
    case 6:
    case 8:
      return <CodeAnswer subject={subject} value={value} onChange={onChange} ctx={ctx} />;
    case 9:
    case 10: {
      const subs = value?.kind === 'subs' ? value.subs : {};
      const parts = (
        <ol className="sub-questions" data-testid="sub-questions">
          {(subject.subs ?? []).map((sub, i) => (
            <li key={sub.id} className="sub-question" data-testid="sub-question">
              <Typography.Text strong>{t('exam.subQuestion', { n: i + 1 })}</Typography.Text>
              <Html html={sub.stem} className="question-text" />
              <SubInput
                subject={sub}
                value={subs[String(sub.id)]}
                onChange={(v) => onChange({ kind: 'subs', subs: { ...subs, [String(sub.id)]: v } })}
                pasteBlocked={pasteBlocked}
                label={t('exam.subQuestion', { n: i + 1 })}
              />
            </li>
          ))}
        </ol>
      );
      if (subject.type === 10) {
        return (
          <>
            <ListeningPlayer examId={ctx.examId} subjectId={subject.id} />
            {parts}
          </>
        );
      }
      return (
        <div className="reading">
          <section className="passage question-text" aria-label={t('exam.passage')} data-testid="passage">
            <Html html={subject.passage ?? ''} />
          </section>
          {parts}
        </div>
      );
    }
    default:
      return null;
  }
}

/** Choice or blanks input for a question or a sub-question. */
function SubInput(props: {
  subject: Pick<Subject, 'id' | 'type' | 'options' | 'blanks'>;
  value: SubValue | undefined;
  onChange: (v: SubValue) => void;
  pasteBlocked: (() => void) | null;
  label: string;
}) {
  const { subject, value, onChange } = props;
  const name = `q-${subject.id}`;
  if (SINGLE_PICK.has(subject.type)) {
    return (
      <SingleChoice
        name={name}
        label={props.label}
        options={subject.options ?? []}
        value={value?.kind === 'choice' ? value.option : undefined}
        onChange={(option) => onChange({ kind: 'choice', option })}
      />
    );
  }
  if (MULTI_PICK.has(subject.type)) {
    return (
      <MultiChoice
        name={name}
        label={props.label}
        options={subject.options ?? []}
        value={value?.kind === 'multi' ? value.options : []}
        onChange={(options) => onChange({ kind: 'multi', options })}
      />
    );
  }
  return (
    <BlanksInput
      id={name}
      count={subject.blanks ?? 1}
      value={value?.kind === 'blanks' ? value.blanks : []}
      onChange={(blanks) => onChange({ kind: 'blanks', blanks })}
      onPasteBlocked={props.pasteBlocked}
    />
  );
}

function QaAnswer({ subject, value, onChange, ctx }: Props) {
  const { t } = useI18n();
  const current = value?.kind === 'text' ? value : { kind: 'text' as const, html: '', files: [] };
  const latest = useRef(current);
  latest.current = current;
  const [names, setNames] = useState<Record<string, string>>({});
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  const onFile = async (file: File | undefined) => {
    setError(null);
    if (!file) return;
    if (file.size > ANSWER_FILE_MAX_BYTES) {
      setError(t('exam.fileTooLarge', { mb: ANSWER_FILE_MAX_BYTES / 1024 / 1024 }));
      return;
    }
    setProgress(0);
    try {
      const data = await upload(api.uploadAnswerFile, { exam_id: ctx.examId, subject_id: subject.id, file }, (f) =>
        setProgress(Math.round(f * 100)),
      );
      setNames((n) => ({ ...n, [data.key]: data.file_name }));
      onChange({ ...latest.current, files: [...latest.current.files, data.key] });
    } catch (e) {
      setError(t('profile.uploadFailed', { msg: errorText(e) }));
    } finally {
      setProgress(null);
      if (fileInput.current) fileInput.current.value = '';
    }
  };

  return (
    <div>
      <Suspense fallback={<Spin />}>
        <RichTextEditor
          key={subject.id}
          initialHtml={current.html}
          label={t('exam.qa.label')}
          onChange={(html) => onChange({ ...latest.current, html })}
          onPasteBlocked={ctx.allowPaste ? null : ctx.warnPaste}
        />
      </Suspense>
      {ctx.allowUpload && (
        <div className="attachments">
          <Typography.Text strong>{t('exam.files')}</Typography.Text>
          <ul className="file-list" data-testid="qa-files">
            {current.files.map((key) => (
              <li key={key}>
                <PaperClipOutlined aria-hidden /> {names[key] ?? key.split('/').pop()}{' '}
                <Button
                  size="small"
                  type="link"
                  onClick={() => onChange({ ...latest.current, files: latest.current.files.filter((k) => k !== key) })}
                >
                  {t('exam.removeFile', { name: names[key] ?? key.split('/').pop() ?? '' })}
                </Button>
              </li>
            ))}
          </ul>
          <input
            ref={fileInput}
            type="file"
            className="visually-hidden"
            tabIndex={-1}
            aria-label={t('exam.attach')}
            onChange={(e) => void onFile(e.target.files?.[0])}
            data-testid="qa-file-input"
          />
          <Button
            icon={<UploadOutlined aria-hidden />}
            onClick={() => fileInput.current?.click()}
            loading={progress !== null}
            data-testid="qa-attach"
          >
            {progress !== null ? `${progress}%` : t('exam.attach')}
          </Button>
          {error && <Alert type="error" showIcon role="alert" title={error} style={{ marginTop: 8 }} />}
        </div>
      )}
    </div>
  );
}

function CodeAnswer({ subject, value, onChange, ctx }: Props) {
  const { t } = useI18n();
  const offered = (subject.languages?.length ? subject.languages : LANGUAGES.map((l) => l.id)) as LanguageId[];
  const language: LanguageId = value?.kind === 'code' ? value.language : offered[0]!;
  const code = value?.kind === 'code' ? value.code : LANGUAGE_TEMPLATES[language];
  const name = (id: LanguageId) => LANGUAGES.find((l) => l.id === id)?.name ?? id;

  const judgeProps = {
    examId: ctx.examId,
    subject,
    language,
    code,
    save: async () => {
      // Judged code is the answer: an untouched starter is stored too, so the saved answer matches the run.
      if (value?.kind !== 'code') onChange({ kind: 'code', language, code });
      await ctx.saveNow();
    },
    onExamFinished: ctx.examFinished,
  };
  const judge = useJudge(judgeProps);

  const switchLanguage = (next: LanguageId) => {
    // Untouched starter code follows the language; the candidate's own code stays.
    const untouched = code.trim() === '' || code === LANGUAGE_TEMPLATES[language];
    onChange({ kind: 'code', language: next, code: untouched ? LANGUAGE_TEMPLATES[next] : code });
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
