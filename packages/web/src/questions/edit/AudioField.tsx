import { SoundOutlined, UploadOutlined } from '@ant-design/icons';
import { Alert, Button, Space, Typography } from 'antd';
import { useRef, useState } from 'react';
import { errorText } from '../../api/client.js';
import { useI18n } from '../../i18n/index.js';
import type { Problem } from '../problems.js';
import { UPLOAD_LIMITS, uploadAudio } from '../uploads.js';
import { Field } from './FieldProblems.js';

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
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  // A short-lived link from the upload, to listen before saving; a stored question has none.
  const [preview, setPreview] = useState<string | null>(null);
  const mb = UPLOAD_LIMITS.audio / 1024 / 1024;

  const onFile = async (file: File | undefined) => {
    setError(null);
    if (!file) return;
    if (file.size > UPLOAD_LIMITS.audio) {
      setError(t('qedit.audioTooLarge', { mb }));
      return;
    }
    setProgress(0);
    try {
      const data = await uploadAudio(file, (f) => setProgress(Math.round(f * 100)));
      setPreview(data.url);
      onChange({ key: data.key, duration_s: data.duration_s });
    } catch (e) {
      setError(t('qedit.audioFailed', { msg: errorText(e) }));
    } finally {
      setProgress(null);
      if (input.current) input.current.value = '';
    }
  };

  const stored = audio.key !== '';
  return (
    <Field label={t('qedit.audio')} field={AUDIO_FIELDS} problems={problems} extra={t('qedit.audioHint', { mb })}>
      <Space orientation="vertical" style={{ width: '100%' }}>
        <Space wrap>
          <input
            ref={input}
            id={`${idPrefix}-audio-file`}
            type="file"
            accept="audio/wav,audio/x-wav,audio/mpeg,audio/ogg,audio/mp4,.wav,.mp3,.ogg,.m4a"
            className="visually-hidden"
            tabIndex={-1}
            aria-label={t('qedit.audioUpload')}
            onChange={(e) => void onFile(e.target.files?.[0])}
            data-testid="audio-file-input"
          />
          <Button
            icon={<UploadOutlined aria-hidden />}
            loading={progress !== null}
            onClick={() => input.current?.click()}
            data-testid="audio-upload"
          >
            {progress !== null ? `${progress}%` : stored ? t('qedit.audioReplace') : t('qedit.audioUpload')}
          </Button>
          {stored && (
            <Typography.Text data-testid="audio-stored">
              <SoundOutlined aria-hidden /> {t('qedit.audioStored', { s: Math.round(audio.duration_s * 10) / 10 })}
            </Typography.Text>
          )}
        </Space>
        {preview && <audio controls src={preview} aria-label={t('qedit.audioPreview')} />}
        {error && <Alert type="error" showIcon role="alert" title={error} />}
      </Space>
    </Field>
  );
}
