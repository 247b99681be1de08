/**
 * The device checks of the monitor phase, one component per step. Each step opens its device,
 * shows it working and records its outcome with /monitor/check; the streams go to the shared
 * store so the exam page uses them without asking again.
 */
import { api, type MonitorStepKey } from '@examhall/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Checkbox, Flex, Input, Progress, Space, Tag, Typography } from 'antd';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import SignaturePad from 'signature_pad';
import { errorText, request } from '../api/client.js';
import { useI18n, type MessageKey } from '../i18n/index.js';
import { recordCheck, saveSignature, takeFirstPicture, type FirstPictureResult } from './checks.js';
import {
  deviceLabel,
  meterLevel,
  openCamera,
  openMicrophone,
  openScreen,
  toDeviceError,
  type DeviceError,
} from './devices.js';
import { canvasBlob } from './frames.js';
import { isLive, setStream, useRenderOnTrackEnd, useStreams } from './streams.js';

/** What every step gets from the page. */
export interface StepProps {
  /** Exam id. */
  examId: number;
  /** Invitation id. */
  anid: number;
  /** True when the exam allows skipping this step. */
  skippable: boolean;
  /** True when the server already holds this step's outcome (only the device has to be opened again). */
  recorded: boolean;
  /** Called once the step is passed or skipped. */
  onDone: () => void;
}

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
      showIcon
      role="alert"
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

/** Records the step (unless the server already has it) and moves on; shows a failure to record. */
function useRecord(props: StepProps, step: MonitorStepKey) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async (result: 'passed' | 'skipped', device?: string) => {
    setBusy(true);
    setError(null);
    try {
      if (!props.recorded || result === 'skipped') await recordCheck(props.examId, step, result, device);
      props.onDone();
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run };
}

/** The step's record error and its Continue / Skip buttons. */
function StepActions({
  canPass,
  busy,
  error,
  skippable,
  onPass,
  onSkip,
  passLabel,
}: {
  canPass: boolean;
  busy: boolean;
  error: string | null;
  skippable: boolean;
  onPass: () => void;
  onSkip: () => void;
  passLabel?: string;
}) {
  const { t } = useI18n();
  return (
    <>
      {error && (
        <Alert
          type="error"
          showIcon
          role="alert"
          title={t('proctor.recordFailed', { msg: error })}
          style={{ margin: '12px 0' }}
        />
      )}
      <Space wrap style={{ marginTop: 12 }}>
        <Button type="primary" disabled={!canPass} loading={busy} onClick={onPass} data-testid="step-pass">
          {passLabel ?? t('proctor.continue')}
        </Button>
        {skippable && (
          <Button onClick={onSkip} disabled={busy} data-testid="step-skip">
            {t('proctor.skip')}
          </Button>
        )}
      </Space>
      {skippable && (
        <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
          {t('proctor.skipHint')}
        </Typography.Paragraph>
      )}
    </>
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

/** Opens a device on request; answers the stream from the store and the last failure. */
function useDevice(kind: 'camera' | 'microphone' | 'screen', open: () => Promise<MediaStream>) {
  const streams = useStreams();
  const stream = streams[kind];
  const [opening, setOpening] = useState(false);
  const [problem, setProblem] = useState<DeviceError | null>(null);
  // A track ended (device unplugged, sharing stopped from the browser bar) shows the step's button again.
  useRenderOnTrackEnd(stream);
  const start = async () => {
    setOpening(true);
    setProblem(null);
    try {
      setStream(kind, await open());
    } catch (e) {
      const error = toDeviceError(e);
      console.warn(`[proctor] ${kind}: ${error.message}`);
      setProblem(error);
    } finally {
      setOpening(false);
    }
  };
  return { stream: isLive(stream) ? stream : null, opening, problem, start };
}

/**
 * The frame of a device step: its intro, guidance when the device fails, the button that opens it, what
 * the step shows while the device is live, and the Continue / Skip buttons.
 */
function DeviceStep({
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
  device: ReturnType<typeof useDevice>;
  record: ReturnType<typeof useRecord>;
  intro: string;
  openLabel: string;
  /** Whether the step may pass once the device is live (the camera also wants its first picture). */
  canPass?: boolean;
  children: (stream: MediaStream) => ReactNode;
}) {
  return (
    <div data-testid={`step-${step}`}>
      <Typography.Paragraph>{intro}</Typography.Paragraph>
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
        busy={record.busy}
        error={record.error}
        skippable={props.skippable}
        onPass={() => device.stream && void record.run('passed', deviceLabel(device.stream))}
        onSkip={() => void record.run('skipped')}
      />
    </div>
  );
}

/** Camera: a live mirrored preview, then the first picture and its face check. */
export function CameraStep(props: StepProps) {
  const { t } = useI18n();
  const device = useDevice('camera', () => openCamera('user'));
  const record = useRecord(props, 'camera');
  const [picture, setPicture] = useState<FirstPictureResult | null>(null);
  const [taking, setTaking] = useState(false);
  const [pictureError, setPictureError] = useState<string | null>(null);

  const take = async () => {
    if (!device.stream) return;
    setTaking(true);
    setPictureError(null);
    setPicture(null);
    try {
      setPicture(await takeFirstPicture(props.examId, device.stream));
    } catch (e) {
      setPictureError(errorText(e));
    } finally {
      setTaking(false);
    }
  };

  const faces = picture?.face?.face_count;
  return (
    <DeviceStep
      props={props}
      step="camera"
      device={device}
      record={record}
      intro={t('proctor.camera.intro')}
      openLabel={t('proctor.camera.open')}
      canPass={!!picture || props.recorded}
    >
      {(stream) => (
        <>
          <StreamPreview stream={stream} mirror label={t('proctor.camera.preview')} />
          <Space wrap style={{ marginTop: 12 }}>
            <Button
              onClick={() => void take()}
              loading={taking}
              data-testid="take-picture"
              type={picture ? 'default' : 'primary'}
            >
              {picture ? t('proctor.camera.retake') : t('proctor.camera.take')}
            </Button>
          </Space>
          {pictureError && (
            <Alert
              type="error"
              showIcon
              role="alert"
              title={t('proctor.camera.pictureFailed', { msg: pictureError })}
              style={{ marginTop: 12 }}
            />
          )}
          {picture?.face && (
            <Alert
              type={faces === 1 ? 'success' : 'warning'}
              showIcon
              role="status"
              data-testid="face-result"
              data-faces={faces}
              style={{ marginTop: 12 }}
              title={t('proctor.camera.faces', { n: faces ?? 0 })}
              description={
                faces === 0
                  ? t('proctor.camera.noFace')
                  : faces !== undefined && faces > 1
                    ? t('proctor.camera.manyFaces')
                    : picture.face.similarity !== null
                      ? t('proctor.camera.similarity', { pct: Math.round(picture.face.similarity * 100) })
                      : undefined
              }
            />
          )}
          {picture?.faceError && (
            <Alert
              type="warning"
              showIcon
              role="status"
              data-testid="face-result"
              data-faces="error"
              style={{ marginTop: 12 }}
              title={t('proctor.camera.faceFailed', { msg: picture.faceError })}
            />
          )}
        </>
      )}
    </DeviceStep>
  );
}

/** Microphone: a live level meter. */
export function MicrophoneStep(props: StepProps) {
  const { t } = useI18n();
  const device = useDevice('microphone', () => openMicrophone());
  const record = useRecord(props, 'microphone');
  const [level, setLevel] = useState(0);
  const [heard, setHeard] = useState(false);

  useEffect(() => {
    if (!device.stream) return;
    let meter: ReturnType<typeof meterLevel>;
    try {
      meter = meterLevel(device.stream);
    } catch (e) {
      console.warn('[proctor] microphone level unavailable', e);
      return;
    }
    let frame = 0;
    let last = 0;
    const tick = (now: number) => {
      // About 10 updates a second is enough for the eye and keeps React idle.
      if (now - last > 100) {
        last = now;
        const v = meter.level();
        setLevel(v);
        if (v > 0.05) setHeard(true);
      }
      frame = requestAnimationFrame(tick);
    };
    frame = requestAnimationFrame(tick);
    return () => {
      cancelAnimationFrame(frame);
      meter.close();
    };
  }, [device.stream]);

  return (
    <DeviceStep
      props={props}
      step="microphone"
      device={device}
      record={record}
      intro={t('proctor.microphone.intro')}
      openLabel={t('proctor.microphone.open')}
    >
      {() => (
        <div>
          <Typography.Text id="mic-level-label">{t('proctor.microphone.level')}</Typography.Text>
          <Progress
            percent={Math.round(level * 100)}
            showInfo={false}
            aria-labelledby="mic-level-label"
            data-testid="mic-level"
            data-level={level.toFixed(3)}
            strokeColor={level > 0.05 ? '#52c41a' : undefined}
          />
          <Typography.Paragraph type={heard ? 'success' : 'secondary'} data-testid="mic-heard" data-heard={heard}>
            {heard ? t('proctor.microphone.heard') : t('proctor.microphone.speak')}
          </Typography.Paragraph>
        </div>
      )}
    </DeviceStep>
  );
}

/** Screen sharing: the whole screen only. */
export function ScreenStep(props: StepProps) {
  const { t } = useI18n();
  const device = useDevice('screen', openScreen);
  const record = useRecord(props, 'screenSharing');
  return (
    <DeviceStep
      props={props}
      step="screenSharing"
      device={device}
      record={record}
      intro={t('proctor.screen.intro')}
      openLabel={t('proctor.screen.open')}
    >
      {(stream) => (
        <>
          <Alert
            type="success"
            showIcon
            role="status"
            title={t('proctor.screen.sharing')}
            style={{ marginBottom: 12 }}
          />
          <StreamPreview stream={stream} mirror={false} label={t('proctor.screen.preview')} />
        </>
      )}
    </DeviceStep>
  );
}

/** Phone as second camera: the QR code of the phone page and its live status. */
export function MobileStep(props: StepProps) {
  const { t } = useI18n();
  const record = useRecord(props, 'mobileDevice');
  const qr = useQuery({
    queryKey: ['mini-qrcode', props.examId, props.anid],
    queryFn: ({ signal }) => request(api.miniQrcode, { query: { exam_id: props.examId, anid: props.anid }, signal }),
    // The link is short-lived: fetch a new one shortly before it runs out.
    refetchInterval: (query) => {
      const expires = query.state.data?.expires_at;
      return expires ? Math.max(10_000, expires - Date.now() - 30_000) : false;
    },
  });
  const state = useQuery({
    queryKey: ['monitor-state', props.examId],
    queryFn: ({ signal }) => request(api.monitorState, { query: { exam_id: props.examId }, signal }),
    refetchInterval: 2_000,
  });
  const connected = state.data?.mobileDeviceStatus === 1;
  return (
    <div data-testid="step-mobileDevice">
      <Typography.Paragraph>{t('proctor.mobile.intro')}</Typography.Paragraph>
      {qr.isError && (
        <Alert
          type="error"
          showIcon
          role="alert"
          title={t('proctor.mobile.qrFailed', { msg: errorText(qr.error) })}
          action={
            <Button size="small" onClick={() => void qr.refetch()}>
              {t('common.retry')}
            </Button>
          }
        />
      )}
      {qr.data && (
        <Flex gap={16} wrap align="center">
          <img src={qr.data.image} alt={t('proctor.mobile.qrAlt')} width={200} height={200} data-testid="phone-qr" />
          <div style={{ maxWidth: 420 }}>
            <Typography.Paragraph>{t('proctor.mobile.scan')}</Typography.Paragraph>
            <Typography.Paragraph copyable={{ text: qr.data.url }} style={{ wordBreak: 'break-all' }}>
              <a href={qr.data.url} target="_blank" rel="noreferrer" data-testid="phone-link">
                {qr.data.url}
              </a>
            </Typography.Paragraph>
          </div>
        </Flex>
      )}
      <div role="status" aria-live="polite" style={{ marginTop: 12 }}>
        {connected ? (
          <Tag color="green" data-testid="phone-status" data-connected="1">
            {t('proctor.mobile.connected')}
          </Tag>
        ) : (
          <Tag data-testid="phone-status" data-connected="0">
            {t('proctor.mobile.waiting')}
          </Tag>
        )}
      </div>
      <StepActions
        canPass={connected}
        busy={record.busy}
        error={record.error}
        skippable={props.skippable}
        onPass={() => void record.run('passed', 'phone')}
        onSkip={() => void record.run('skipped')}
      />
    </div>
  );
}

/** Sizes the canvas to its box at the device's pixel ratio (the pad draws sharp lines then). */
function fitCanvas(canvas: HTMLCanvasElement): void {
  const ratio = Math.max(window.devicePixelRatio || 1, 1);
  canvas.width = canvas.offsetWidth * ratio;
  canvas.height = canvas.offsetHeight * ratio;
  canvas.getContext('2d')?.scale(ratio, ratio);
}

/** Signature: the pledge text signed on a pad (or the name typed, for keyboard users), stored as PNG. */
export function SignatureStep(props: StepProps & { pledge: ReactNode }) {
  const { t } = useI18n();
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const padRef = useRef<SignaturePad | null>(null);
  const [drawn, setDrawn] = useState(false);
  const [typed, setTyped] = useState('');
  const [promised, setPromised] = useState(false);
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    fitCanvas(canvas);
    const pad = new SignaturePad(canvas, { backgroundColor: 'rgb(255,255,255)', penColor: '#1f1f1f' });
    pad.addEventListener('endStroke', () => setDrawn(!pad.isEmpty()));
    padRef.current = pad;
    return () => {
      pad.off();
      padRef.current = null;
    };
  }, []);

  // A typed name is written on the pad in a handwriting-like font, so the stored image is one kind.
  useEffect(() => {
    const canvas = canvasRef.current;
    const pad = padRef.current;
    if (!canvas || !pad || drawn) return;
    pad.clear();
    const ctx = canvas.getContext('2d');
    if (!ctx || !typed.trim()) return;
    ctx.fillStyle = '#1f1f1f';
    ctx.font = `italic 36px "Segoe Script", "Brush Script MT", "KaiTi", cursive`;
    ctx.textBaseline = 'middle';
    ctx.fillText(typed.trim(), 24, canvas.offsetHeight / 2, canvas.offsetWidth - 48);
  }, [typed, drawn]);

  const clear = () => {
    padRef.current?.clear();
    setDrawn(false);
    setTyped('');
  };

  const signed = drawn || typed.trim().length > 0;
  const submit = async () => {
    setTried(true);
    const canvas = canvasRef.current;
    if (!promised || !signed || !canvas) return;
    setBusy(true);
    setError(null);
    try {
      await saveSignature(props.examId, await canvasBlob(canvas, 'image/png'));
      await recordCheck(props.examId, 'signature', 'passed');
      props.onDone();
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="pledge-title" className="pledge" data-testid="step-signature">
      <Typography.Title level={2} style={{ fontSize: 18 }} id="pledge-title">
        {t('monitor.pledgeTitle')}
      </Typography.Title>
      {props.pledge}
      <Checkbox checked={promised} onChange={(e) => setPromised(e.target.checked)} data-testid="pledge-check">
        {t('monitor.promise')}
      </Checkbox>
      <Typography.Paragraph style={{ marginTop: 12 }} id="signature-label">
        {t('proctor.signature.intro')}
      </Typography.Paragraph>
      <canvas
        ref={canvasRef}
        className="signature-pad"
        aria-labelledby="signature-label"
        role="img"
        data-testid="signature-pad"
      />
      <Space wrap style={{ marginTop: 8 }}>
        <Input
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          disabled={drawn}
          maxLength={40}
          placeholder={t('proctor.signature.typePlaceholder')}
          aria-label={t('proctor.signature.typeLabel')}
          data-testid="signature-typed"
          style={{ width: 260 }}
        />
        <Button onClick={clear} data-testid="signature-clear">
          {t('proctor.signature.clear')}
        </Button>
      </Space>
      {tried && (!promised || !signed) && (
        <Alert
          type="warning"
          showIcon
          role="alert"
          title={!promised ? t('monitor.pledgeNeeded') : t('proctor.signature.needed')}
          style={{ marginTop: 8 }}
        />
      )}
      {error && (
        <Alert
          type="error"
          showIcon
          role="alert"
          title={t('proctor.recordFailed', { msg: error })}
          style={{ marginTop: 8 }}
        />
      )}
      <div style={{ marginTop: 12 }}>
        <Button type="primary" loading={busy} onClick={() => void submit()} data-testid="signature-submit">
          {t('proctor.signature.submit')}
        </Button>
      </div>
    </section>
  );
}
