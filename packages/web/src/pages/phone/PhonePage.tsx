import { ExamPhase, type PhoneSessionData, monitorCalls } from '@examhall/contract';
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { Alert, Button, Descriptions, Tag, Typography } from 'antd';
import { useEffect, useRef, useState, type RefObject } from 'react';
import { useSearchParams } from 'react-router';
import { errorText, isApiError, request, setPhoneToken } from '../../api/client.js';
import { formatDuration } from '../../exam/clock.js';
import { useI18n } from '../../i18n/index.js';
import { phoneCredentials } from '../../proctor/credentials.js';
import { openCamera, toDeviceError, type DeviceError } from '../../proctor/devices.js';
import { grabStill } from '../../proctor/frames.js';
import { StreamPreview } from '../../proctor/steps/widgets.js';
import { isLive, useRenderOnTrackEnd } from '../../proctor/streams.js';
import { putObject } from '../../proctor/upload.js';
import { LanguageSwitch } from '../../shell/LanguageSwitch.js';
import { useDocumentTitle } from '../../shell/useDocumentTitle.js';

/** How often the page tells the server it is alive (and learns the phase). */
const HEARTBEAT_MS = 5_000;

const TOKEN_KEY = 'examhall-phone-token';

/**
 * Reads the phone token from the address, keeps it for reloads of this tab (sessionStorage, never
 * the cookie) and takes it out of the address, so it is not shown or sent on as the referer.
 */
function usePhoneToken(): string | null {
  const [params, setParams] = useSearchParams();
  const [token] = useState(() => {
    const fromUrl = params.get('auth');
    try {
      if (fromUrl) sessionStorage.setItem(TOKEN_KEY, fromUrl);
      return fromUrl ?? sessionStorage.getItem(TOKEN_KEY);
    } catch {
      return fromUrl;
    }
  });
  // Set during render so the first query already carries it.
  setPhoneToken(token);
  const inAddress = params.has('auth');
  useEffect(() => {
    if (inAddress) setParams({}, { replace: true });
  }, [inAddress, setParams]);
  return token;
}

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
                    {t('phone.lastSent', { time: new Date(lastSent).toLocaleTimeString() })}
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

/** Keeps the screen on while pictures are sent, where the browser allows it. */
function useWakeLock(on: boolean) {
  useEffect(() => {
    if (!on || !('wakeLock' in navigator)) return;
    let lock: WakeLockSentinel | null = null;
    navigator.wakeLock
      .request('screen')
      .then((l) => (lock = l))
      .catch(() => undefined);
    return () => void lock?.release().catch(() => undefined);
  }, [on]);
}

/** Sends a picture from `stream` every `interval` seconds while it is given; answers what was sent. */
function usePhonePictures(stream: MediaStream | null, interval: number, offsetRef: RefObject<number>) {
  const [sent, setSent] = useState(0);
  const [lastSent, setLastSent] = useState<number | null>(null);
  const [sendError, setSendError] = useState<string | null>(null);
  useEffect(() => {
    if (!stream) return;
    let cancelled = false;
    const send = async () => {
      const trigger_time = Date.now() + offsetRef.current;
      const client_id = crypto.randomUUID();
      try {
        const blob = await grabStill(stream, { mirror: false });
        const { key, sha256 } = await putObject(
          phoneCredentials(() => Date.now() + offsetRef.current),
          `phone/${trigger_time}-${client_id.slice(0, 8)}.jpg`,
          blob,
          'image/jpeg',
        );
        await request(monitorCalls.phonePicture, { body: { key, sha256, trigger_time, client_id } });
        if (cancelled) return;
        setSent((n) => n + 1);
        setLastSent(Date.now());
        setSendError(null);
      } catch (e) {
        console.warn('[phone] picture not sent:', errorText(e));
        if (!cancelled) setSendError(errorText(e));
      }
    };
    void send();
    const timer = setInterval(() => void send(), Math.max(1, interval) * 1000);
    return () => {
      cancelled = true;
      clearInterval(timer);
    };
  }, [stream, interval, offsetRef]);
  return { sent, lastSent, sendError };
}

/** Why the page has no session (a bad link, a failed load), or that its heartbeat failed. */
function SessionAlerts({ session, hasInfo }: { session: UseQueryResult<unknown>; hasInfo: boolean }) {
  const { t } = useI18n();
  return (
    <>
      {session.isError && !hasInfo && (
        <Alert
          type="error"
          showIcon
          role="alert"
          data-testid="phone-error"
          title={
            isApiError(session.error) && session.error.code === 'phone_link_invalid'
              ? t('phone.linkInvalid')
              : t('phone.sessionFailed', { msg: errorText(session.error) })
          }
          action={
            <Button size="small" onClick={() => void session.refetch()}>
              {t('common.retry')}
            </Button>
          }
        />
      )}
      {session.isError && hasInfo && (
        <Alert
          type="warning"
          showIcon
          role="alert"
          title={t('phone.heartbeatFailed', { msg: errorText(session.error) })}
          data-testid="phone-heartbeat-error"
        />
      )}
    </>
  );
}
