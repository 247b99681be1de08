import { SoundOutlined } from '@ant-design/icons';
import { Alert, Space, Typography } from 'antd';
import { useState } from 'react';
import { useI18n } from '../../i18n/index.js';
import type { Problem } from '../problems.js';
import { UPLOAD_LIMITS, uploadAudio } from '../uploads.js';
import { Field } from './FieldProblems.js';
import { FilePicker, useFileUpload } from './FilePicker.js';

/** The key's and the content's halves of the audio are one field for the author. */
const AUDIO_FIELDS = ['key.audio.key', 'key.audio', 'content.audio.duration_s'] as const;

/** A stored listening audio: its storage key and its length (read by the server). */
export interface StoredAudio {
  key: string;
  duration_s: number;
}

/** The listening audio: upload (the server answers its length), replace, and listen to a new upload. */
export function AudioField({
  audio,
  onChange,
  problems,
  idPrefix,
}: {
  audio: StoredAudio;
  onChange: (audio: StoredAudio) => void;
  problems: readonly Problem[];
  idPrefix: string;
}) {
  const { t } = useI18n();
  // A short-lived link from the upload, to listen before saving; a stored question has none.
  const [preview, setPreview] = useState<string | null>(null);
  const mb = UPLOAD_LIMITS.audio / 1024 / 1024;
  const upload = useFileUpload({
    maxBytes: UPLOAD_LIMITS.audio,
    tooLarge: t('qedit.audioTooLarge', { mb }),
    failed: (msg) => t('qedit.audioFailed', { msg }),
    send: uploadAudio,
    onSent: (data) => {
      setPreview(data.url);
      onChange({ key: data.key, duration_s: data.duration_s });
    },
  });

  const stored = audio.key !== '';
  return (
    <Field label={t('qedit.audio')} field={AUDIO_FIELDS} problems={problems} extra={t('qedit.audioHint', { mb })}>
      <Space orientation="vertical" style={{ width: '100%' }}>
        <Space wrap>
          <FilePicker
            upload={upload}
            id={`${idPrefix}-audio-file`}
            accept="audio/wav,audio/x-wav,audio/mpeg,audio/ogg,audio/mp4,.wav,.mp3,.ogg,.m4a"
            label={t('qedit.audioUpload')}
            text={stored ? t('qedit.audioReplace') : t('qedit.audioUpload')}
            testId="audio"
          />
          {stored && (
            <Typography.Text data-testid="audio-stored">
              <SoundOutlined aria-hidden /> {t('qedit.audioStored', { s: Math.round(audio.duration_s * 10) / 10 })}
            </Typography.Text>
          )}
        </Space>
        {preview && <audio controls src={preview} aria-label={t('qedit.audioPreview')} />}
        {upload.error && <Alert type="error" showIcon role="alert" title={upload.error} />}
      </Space>
    </Field>
  );
}
