import { PaperClipOutlined, UploadOutlined } from '@ant-design/icons';
import { ANSWER_FILE_MAX_BYTES, subjectCalls } from '@examhall/contract';
import { Alert, Button, Spin, Typography } from 'antd';
import { lazy, Suspense, useRef, useState } from 'react';
import { errorText, upload } from '../../api/client.js';
import { useI18n } from '../../i18n/index.js';
import type { RendererProps as Props } from './types.js';

const RichTextEditor = lazy(() => import('../../exam/questions/RichTextEditor.js'));

/** A Q&A answer: rich text (paste by the exam's flag) and, when the exam allows, uploaded files. */
export function QaAnswer({ subject, value, onChange, ctx }: Props) {
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
      const data = await upload(
        subjectCalls.uploadAnswerFile,
        { exam_id: ctx.examId, subject_id: subject.id, file },
        (f) => setProgress(Math.round(f * 100)),
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
