import { RESUME_MAX_BYTES, RESUME_TYPES, type ResumeFile, examCalls } from '@examhall/contract';
import { UploadOutlined } from '@ant-design/icons';
import { Alert, App, Button, Progress, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { errorText, upload } from '../../api/client.js';
import { useI18n } from '../../i18n/index.js';
import { serverTime } from '../../shell/serverTime.js';

const RESUME_ACCEPT = [...Object.keys(RESUME_TYPES), ...Object.values(RESUME_TYPES)].join(',');
const MAX_MB = RESUME_MAX_BYTES / 1024 / 1024;

function formatSize(bytes: number): string {
  return bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** True when a file is one of the accepted resume types, by MIME type or, when the browser gives none, by extension. */
function isResumeType(file: File): boolean {
  if (file.type && file.type in RESUME_TYPES) return true;
  const ext = file.name.slice(file.name.lastIndexOf('.')).toLowerCase();
  return Object.values(RESUME_TYPES).includes(ext);
}

/** The resume: the one stored, and a new upload with its progress; the server checks it by its content. */
export function ResumeField({ initial }: { initial: ResumeFile | null }) {
  const { t } = useI18n();
  const { message } = App.useApp();
  const [resume, setResume] = useState<ResumeFile | null>(initial);
  useEffect(() => setResume(initial), [initial]);
  const [progress, setProgress] = useState<number | null>(null);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  const onFile = async (file: File | undefined) => {
    setUploadError(null);
    if (!file) return;
    if (!isResumeType(file)) return setUploadError(t('profile.resumeWrongType'));
    if (file.size > RESUME_MAX_BYTES) return setUploadError(t('profile.resumeTooLarge', { mb: MAX_MB }));
    setProgress(0);
    try {
      const data = await upload(examCalls.uploadResume, { file }, (f) => setProgress(Math.round(f * 100)));
      setResume(data.resume);
      void message.success(t('profile.resumeUploaded'));
    } catch (e) {
      setUploadError(t('profile.uploadFailed', { msg: errorText(e) }));
    } finally {
      setProgress(null);
      if (fileInput.current) fileInput.current.value = '';
    }
  };

  return (
    <fieldset className="plain-fieldset">
      <legend className="field-legend">{t('profile.resume')}</legend>
      <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
        {t('profile.resumeHint', { mb: MAX_MB })}
      </Typography.Paragraph>
      <Typography.Paragraph data-testid="resume-current">
        {resume
          ? t('profile.resumeCurrent', {
              name: resume.file_name,
              size: formatSize(resume.size),
              time: serverTime(resume.uploaded_at),
            })
          : t('profile.resumeNone')}
      </Typography.Paragraph>
      <input
        ref={fileInput}
        id="resume-file"
        type="file"
        aria-label={t('profile.resumeChoose')}
        tabIndex={-1}
        accept={RESUME_ACCEPT}
        className="visually-hidden"
        onChange={(e) => void onFile(e.target.files?.[0])}
        data-testid="resume-input"
      />
      <Button
        icon={<UploadOutlined aria-hidden />}
        onClick={() => fileInput.current?.click()}
        disabled={progress !== null}
        data-testid="resume-choose"
      >
        {t('profile.resumeChoose')}
      </Button>
      {progress !== null && (
        <div role="status" aria-live="polite" style={{ marginTop: 8 }}>
          <Progress percent={progress} size="small" data-testid="resume-progress" />
          <span className="visually-hidden">{t('profile.uploading', { percent: progress })}</span>
        </div>
      )}
      {uploadError && (
        <Alert
          type="error"
          showIcon
          role="alert"
          title={uploadError}
          style={{ marginTop: 8 }}
          data-testid="resume-error"
        />
      )}
    </fieldset>
  );
}
