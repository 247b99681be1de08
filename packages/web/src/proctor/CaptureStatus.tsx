import { useSyncExternalStore } from 'react';
import { useI18n } from '../i18n/index.js';
import { Alert } from '../ui/Alert.js';
import { getCaptureStatus, subscribeCaptureStatus, type CaptureStatus as Status } from './captures.js';

/** The capture status as React state. */
export function useCaptureStatus(): Status {
  return useSyncExternalStore(subscribeCaptureStatus, getCaptureStatus, getCaptureStatus);
}

/**
 * A small notice for the exam page: that the attempt's storage quota is used up, 'upload failed'
 * after a failed frame upload (until a later frame gets through), and how many pictures wait offline for the connection.
 */
export function CaptureStatus() {
  const { t } = useI18n();
  const status = useCaptureStatus();
  if (!status.error && status.offlineWaiting === 0 && !status.quotaFull) return null;
  return (
    <div data-testid="capture-status">
      {status.quotaFull && (
        <Alert type="error" title={t('error.storage_quota_exceeded')} data-testid="capture-quota-full" />
      )}
      {status.error && <Alert type="warning" title={t('proctor.uploadFailed')} data-testid="capture-upload-failed" />}
      {status.offlineWaiting > 0 && (
        <Alert type="info" title={t('proctor.offlineWaiting', { n: status.offlineWaiting })} />
      )}
    </div>
  );
}
