import { ExamPhase, formatServerTime, type PhoneSessionData, monitorCalls } from '@examhall/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Descriptions, Tag, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { request } from '../../api/client.js';
import { formatDuration } from '../../exam/clock.js';
import { useI18n } from '../../i18n/index.js';
import { openCamera, toDeviceError, type DeviceError } from '../../proctor/devices.js';
import { StreamPreview } from '../../proctor/steps/widgets.js';
import { isLive, useRenderOnTrackEnd } from '../../proctor/streams.js';
import { LanguageSwitch } from '../../shell/LanguageSwitch.js';
import { useDocumentTitle } from '../../shell/useDocumentTitle.js';
import { SessionAlerts } from './SessionAlerts.js';
import { usePhonePictures } from './usePhonePictures.js';
import { useWakeLock } from './useWakeLock.js';
import { usePhoneToken } from './usePhoneToken.js';

/** How often the page tells the server it is alive (and learns the phase). */
const HEARTBEAT_MS = 5_000;

/**
 * The second view, opened on a phone from the QR code: it keeps the camera on and sends a
 * picture on the exam's interval (upload with the phone's credentials, then /phone/picture),
 * and calls /phone/session every few seconds as a heartbeat.
 */
export default function PhonePage() {
  const { t } = useI18n();
  useDocumentTitle(t('phone.pageTitle'));
  const token = usePhoneToken();
  const session = useQuery({
    queryKey: ['phone-session', token],
    queryFn: async ({ signal }) => {
      const sentAt = Date.now();
      const data = await request(monitorCalls.phoneSession, { signal });
      // Pictures carry server-aligned times; the phone's clock may be off.
      return { data, offset: data.server_time - Math.round((sentAt + Date.now()) / 2) };
    },
    enabled: !!token,
    refetchInterval: HEARTBEAT_MS,
    refetchIntervalInBackground: true,
    retry: false,
  });
  const info: PhoneSessionData | undefined = session.data?.data;
  const over = info?.phase === ExamPhase.submit;

  const [stream, setStream] = useState<MediaStream | null>(null);
  const [problem, setProblem] = useState<DeviceError | null>(null);
  const [opening, setOpening] = useState(false);
  const offsetRef = useRef(0);
  offsetRef.current = session.data?.offset ?? offsetRef.current;

  const open = async () => {
    setOpening(true);
    setProblem(null);
    try {
      setStream(await openCamera('environment'));
    } catch (e) {
      setProblem(toDeviceError(e));
    } finally {
      setOpening(false);
    }
  };

  // The camera is opened as soon as the link checks out; a refusal shows the button again.
  const sessionOk = !!info;
  useEffect(() => {
    if (sessionOk && !over) void open();
  }, [sessionOk, over]);

  // A track that ends (camera taken by another app, page hidden on some phones) shows the button.
  useRenderOnTrackEnd(stream);
  useEffect(() => () => stream?.getTracks().forEach((tr) => tr.stop()), [stream]);

  const live = isLive(stream) && !over;
  useWakeLock(live);
  const { sent, lastSent, sendError } = usePhonePictures(live ? stream : null, info?.capture_interval ?? 30, offsetRef);

  // Once the attempt is over the camera is released.
  useEffect(() => {
    if (over) stream?.getTracks().forEach((tr) => tr.stop());
  }, [over, stream]);

  const remaining = info?.end_time ? Math.max(0, info.end_time - (Date.now() + offsetRef.current)) : null;

  return (
    <main className="phone-page" data-testid="phone-page">
      <header className="phone-header">
        <Typography.Title level={1} style={{ fontSize: 20, margin: 0 }}>
          {t('phone.title')}
        </Typography.Title>
        <LanguageSwitch />
      </header>
      {!token && <Alert type="error" showIcon role="alert" title={t('phone.noToken')} data-testid="phone-error" />}
      <SessionAlerts session={session} hasInfo={!!info} />
      {info && (
        <>
          <Descriptions
            size="small"
            column={1}
            // antd's label grey is below 4.5:1 on the page's grey background; the theme's secondary text is not.
            styles={{ label: { color: 'rgba(0, 0, 0, 0.65)' } }}
            items={[
              { key: 'exam', label: t('phone.exam'), children: info.exam_name },
              {
                key: 'phase',
                label: t('phone.phase'),
                children: t(
                  info.phase === ExamPhase.monitor
                    ? 'phone.phase.monitor'
                    : info.phase === ExamPhase.exam
                      ? 'phone.phase.exam'
                      : 'phone.phase.submit',
                ),
              },
              ...(remaining !== null && !over
                ? [{ key: 'left', label: t('phone.remaining'), children: formatDuration(remaining) }]
                : []),
            ]}
          />
          {over ? (
            <Alert type="success" showIcon role="status" title={t('phone.over')} data-testid="phone-over" />
          ) : (
            <>
              <Typography.Paragraph style={{ marginTop: 12 }}>{t('phone.placement')}</Typography.Paragraph>
              {problem && (
                <Alert
                  type="error"
                  showIcon
                  role="alert"
                  data-testid="phone-camera-problem"
                  title={t(`proctor.problem.${problem.problem}`, {
                    device: t('proctor.device.camera'),
                    surface: problem.detail,
                  })}
                  description={
                    problem.problem === 'denied'
                      ? t('proctor.problem.deniedHelp', { device: t('proctor.device.camera') })
                      : undefined
                  }
                />
              )}
              {live && stream ? (
                <StreamPreview stream={stream} mirror={false} label={t('phone.preview')} />
              ) : (
                <Button
                  type="primary"
                  size="large"
                  block
                  onClick={() => void open()}
                  loading={opening}
                  data-testid="phone-camera-open"
                  style={{ marginTop: 12 }}
                >
                  {t('phone.openCamera')}
                </Button>
              )}
              <div
                role="status"
                aria-live="polite"
                style={{ marginTop: 12 }}
                data-testid="phone-status"
                data-sent={sent}
              >
                {live ? (
                  <Tag color="green">{t('phone.sending', { n: sent })}</Tag>
                ) : (
                  <Tag color="red">{t('phone.notSending')}</Tag>
                )}
                {lastSent !== null && (
                  <Typography.Text type="secondary">
                    {t('phone.lastSent', { time: formatServerTime(lastSent).slice(11) })}
                  </Typography.Text>
                )}
              </div>
              {sendError && (
                <Alert
                  type="warning"
                  showIcon
                  role="alert"
                  title={t('phone.sendFailed', { msg: sendError })}
                  style={{ marginTop: 12 }}
                  data-testid="phone-send-error"
                />
              )}
            </>
          )}
        </>
      )}
    </main>
  );
}
