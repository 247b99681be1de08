/** The widgets the device steps share: device guidance, the live preview, the Continue / Skip buttons, the step frame. */
import type { MonitorStepKey } from '@examhall/contract';
import { useEffect, useRef, type ReactNode } from 'react';
import { useI18n, type MessageKey } from '../../i18n/index.js';
import { Alert } from '../../ui/Alert.js';
import { Button } from '../../ui/Button.js';
import { Space } from '../../ui/Flex.js';
import { Paragraph } from '../../ui/Typography.js';
import { deviceLabel, type DeviceError } from '../devices.js';
import type { StepDevice, StepProps, StepRecorder } from './hooks.js';

const PROBLEM_KEYS: Record<DeviceError['problem'], MessageKey> = {
  denied: 'proctor.problem.denied',
  missing: 'proctor.problem.missing',
  busy: 'proctor.problem.busy',
  notWholeScreen: 'proctor.problem.notWholeScreen',
  unsupported: 'proctor.problem.unsupported',
  failed: 'proctor.problem.failed',
};

const DEVICE_KEYS: Partial<Record<MonitorStepKey, MessageKey>> = {
  camera: 'proctor.device.camera',
  microphone: 'proctor.device.microphone',
  screenSharing: 'proctor.device.screen',
};

/** Guidance for a device that could not be opened, with a retry button (also used on the exam page). */
export function DeviceProblem({
  step,
  error,
  onRetry,
}: {
  step: MonitorStepKey;
  error: DeviceError;
  onRetry: () => void;
}) {
  const { t } = useI18n();
  const device = t(DEVICE_KEYS[step] ?? 'proctor.device.camera');
  return (
    <Alert
      type="error"
      data-testid="device-problem"
      data-problem={error.problem}
      title={t(PROBLEM_KEYS[error.problem], { device, surface: error.detail })}
      description={error.problem === 'denied' ? t('proctor.problem.deniedHelp', { device }) : undefined}
      action={
        <Button size="small" onClick={onRetry} data-testid="device-retry">
          {t('common.retry')}
        </Button>
      }
      style={{ marginBottom: 12 }}
    />
  );
}

/** A live preview of a stream; the camera is mirrored as in a mirror. */
export function StreamPreview({ stream, mirror, label }: { stream: MediaStream; mirror: boolean; label: string }) {
  const ref = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    const video = ref.current;
    if (!video) return;
    video.srcObject = stream;
    void video.play().catch(() => undefined);
    return () => {
      video.srcObject = null;
    };
  }, [stream]);
  return (
    <video
      ref={ref}
      muted
      playsInline
      aria-label={label}
      className={mirror ? 'proctor-preview proctor-mirror' : 'proctor-preview'}
      data-testid="stream-preview"
    />
  );
}

/** The step's record error and its Continue / Skip buttons; skipping is its own button, never a pass. */
export function StepActions({
  canPass,
  record,
  skippable,
  onPass,
}: {
  canPass: boolean;
  record: StepRecorder;
  skippable: boolean;
  onPass: () => void;
}) {
  const { t } = useI18n();
  return (
    <>
      {record.error && (
        <Alert
          type="error"
          data-testid="record-failed"
          title={t('proctor.recordFailed', { msg: record.error })}
          style={{ margin: '12px 0' }}
        />
      )}
      <Space style={{ marginTop: 12 }}>
        <Button type="primary" disabled={!canPass} loading={record.busy} onClick={onPass} data-testid="step-pass">
          {t('proctor.continue')}
        </Button>
        {skippable && (
          <Button onClick={() => record.run('skipped')} disabled={record.busy} data-testid="step-skip">
            {t('proctor.skip')}
          </Button>
        )}
      </Space>
      {skippable && (
        <Paragraph type="secondary" style={{ marginTop: 8 }}>
          {t('proctor.skipHint')}
        </Paragraph>
      )}
    </>
  );
}

/**
 * The frame of a device step: its intro, guidance when the device fails, the button that opens it, what the
 * step shows while the device is live, and the Continue / Skip buttons.
 */
export function DeviceStep({
  props,
  step,
  device,
  record,
  intro,
  openLabel,
  canPass = true,
  children,
}: {
  props: StepProps;
  step: 'camera' | 'microphone' | 'screenSharing';
  device: StepDevice;
  record: StepRecorder;
  intro: string;
  openLabel: string;
  /** Whether the step may pass once the device is live (the camera also wants a good first picture). */
  canPass?: boolean;
  children: (stream: MediaStream) => ReactNode;
}) {
  return (
    <div data-testid={`step-${step}`}>
      <Paragraph>{intro}</Paragraph>
      {device.problem && <DeviceProblem step={step} error={device.problem} onRetry={() => void device.start()} />}
      {!device.stream ? (
        <Button
          type="primary"
          onClick={() => void device.start()}
          loading={device.opening}
          data-testid="device-open"
          autoFocus
        >
          {openLabel}
        </Button>
      ) : (
        children(device.stream)
      )}
      <StepActions
        canPass={!!device.stream && canPass}
        record={record}
        skippable={props.skippable}
        onPass={() => device.stream && record.run('passed', deviceLabel(device.stream))}
      />
    </div>
  );
}
