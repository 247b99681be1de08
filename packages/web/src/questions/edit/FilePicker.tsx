import { UploadOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useRef, useState, type RefObject } from 'react';
import type { UploadProgress } from '../../api/client.js';
import { sendPicked } from '../uploads.js';

/** One file an author picks and the editor sends: its progress in percent while it goes, and why it did not. */
export interface FileUpload {
  input: RefObject<HTMLInputElement | null>;
  /** Percent sent, or null when nothing is on its way. */
  progress: number | null;
  error: string | null;
  onFile: (file: File | undefined) => Promise<void>;
}

/**
 * Sends a picked file with `send` once it is within `maxBytes` (else says `tooLarge` without sending), hands the
 * answer to `onSent`, and says `failed(reason)` when the sending fails. The input is emptied after each try, so
 * the same file can be picked again.
 */
export function useFileUpload<T>({
  maxBytes,
  tooLarge,
  failed,
  send,
  onSent,
}: {
  maxBytes: number;
  tooLarge: string;
  failed: (reason: string) => string;
  send: (file: File, onProgress: UploadProgress) => Promise<T>;
  onSent: (data: T) => void;
}): FileUpload {
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const onFile = async (file: File | undefined) => {
    setError(null);
    if (!file) return;
    const sent = await sendPicked(file, maxBytes, send, setProgress);
    setProgress(null);
    if (input.current) input.current.value = '';
    if (sent.ok) onSent(sent.data);
    else setError(sent.tooLarge ? tooLarge : failed(sent.reason));
  };
  return { input, progress, error, onFile };
}

/**
 * The button that picks the file (the file input itself stays hidden) and shows the percent sent while it goes.
 * Test ids: `${testId}-file-input` and `${testId}-upload`.
 */
export function FilePicker({
  upload,
  id,
  accept,
  label,
  text,
  testId,
}: {
  upload: FileUpload;
  id: string;
  accept: string;
  /** The input's name for screen readers. */
  label: string;
  /** The button's text while nothing is being sent. */
  text: string;
  testId: string;
}) {
  return (
    <>
      <input
        ref={upload.input}
        id={id}
        type="file"
        accept={accept}
        className="visually-hidden"
        tabIndex={-1}
        aria-label={label}
        onChange={(e) => void upload.onFile(e.target.files?.[0])}
        data-testid={`${testId}-file-input`}
      />
      <Button
        icon={<UploadOutlined aria-hidden />}
        loading={upload.progress !== null}
        onClick={() => upload.input.current?.click()}
        data-testid={`${testId}-upload`}
      >
        {upload.progress !== null ? `${upload.progress}%` : text}
      </Button>
    </>
  );
}
