/**
 * What the proctoring says to the candidate during the exam: the live stream from the server
 * (a proctor's warnings, the end of the attempt, the phone's status), the warning dialog the
 * candidate must acknowledge, the prompt to return to fullscreen and the screen-switch notice.
 */
import { CandidateEvent, type WarningView, monitorCalls } from '@examhall/contract';
import { useCallback, useEffect, useRef, useState } from 'react';
import { request, urlFor } from '../api/client.js';
import { useI18n } from '../i18n/index.js';
import { serverTime } from '../shell/serverTime.js';
import { Alert } from '../ui/Alert.js';
import { Button } from '../ui/Button.js';
import { Dialog } from '../ui/Dialog.js';
import { Icon } from '../ui/icons.js';
import { Paragraph, Text } from '../ui/Typography.js';

/** What the page does with the live stream's events. */
export interface CandidateEventHandlers {
  onWarning: (warning: WarningView) => void;
  onEnded: (reason: string) => void;
  onPhone: (status: 0 | 1) => void;
}

/** Longest wait before reconnecting a stream the server closed. */
const MAX_RECONNECT_MS = 30_000;

/**
 * Follows /monitor/events (server-sent events; the token goes as the `auth` query parameter, since
 * EventSource sends no headers). The browser reconnects a dropped stream by itself; one that was
 * refused or closed for good is opened again here with a growing delay. Answers whether it is connected.
 */
export function useCandidateEvents(examId: number, handlers: CandidateEventHandlers): boolean {
  const latest = useRef(handlers);
  latest.current = handlers;
  const [connected, setConnected] = useState(false);

  useEffect(() => {
    if (typeof EventSource === 'undefined') return;
    let source: EventSource | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let failures = 0;
    let stopped = false;

    const handle = (raw: string) => {
      let json: unknown;
      try {
        json = JSON.parse(raw);
      } catch {
        return;
      }
      const parsed = CandidateEvent.safeParse(json);
      if (!parsed.success) return;
      const event = parsed.data;
      if (event.type === 'warning') latest.current.onWarning(event.warning);
      else if (event.type === 'ended') latest.current.onEnded(event.reason);
      else if (event.type === 'phone') latest.current.onPhone(event.mobileDeviceStatus);
    };
    const onMessage = (e: MessageEvent<string>) => handle(e.data);

    const connect = () => {
      if (stopped) return;
      source = new EventSource(urlFor(monitorCalls.candidateEvents, { exam_id: examId }));
      source.onopen = () => {
        failures = 0;
        setConnected(true);
      };
      source.onmessage = onMessage;
      // Servers that name their events are heard too.
      for (const name of ['warning', 'ended', 'phone', 'hello']) source.addEventListener(name, onMessage);
      source.onerror = () => {
        setConnected(false);
        if (source?.readyState !== EventSource.CLOSED) return;
        source = null;
        failures += 1;
        const delay = Math.min(MAX_RECONNECT_MS, 1_000 * 2 ** (failures - 1));
        timer = setTimeout(connect, delay);
      };
    };
    connect();
    // Back online: no need to wait for the next retry.
    const onOnline = () => {
      if (source) return;
      clearTimeout(timer);
      failures = 0;
      connect();
    };
    window.addEventListener('online', onOnline);
    return () => {
      stopped = true;
      clearTimeout(timer);
      window.removeEventListener('online', onOnline);
      source?.close();
    };
  }, [examId]);

  return connected;
}

/**
 * The warnings not yet acknowledged, oldest first, without repeats (a reconnect may send one again). An
 * acknowledgement closes the warning at once and tells the server, so the proctor sees that it was read.
 */
export function useWarnings(examId: number): {
  warnings: WarningView[];
  add: (w: WarningView) => void;
  acknowledge: (id: number) => void;
} {
  const [warnings, setWarnings] = useState<WarningView[]>([]);
  const seen = useRef(new Set<number>());
  const add = useCallback((w: WarningView) => {
    // One already read (in another tab, before a reload) is not shown again.
    if (seen.current.has(w.id) || w.read_at !== null) return;
    seen.current.add(w.id);
    setWarnings((list) => [...list, w]);
  }, []);
  const acknowledge = useCallback(
    (id: number) => {
      setWarnings((list) => list.filter((w) => w.id !== id));
      // The receipt is idempotent (the first read counts), so the client's retries are safe; when it fails for
      // good the candidate has still read the warning, and nothing on their page waits for the receipt.
      request(monitorCalls.warningRead, { body: { exam_id: examId, warning_id: id } }).catch(() => undefined);
    },
    [examId],
  );
  return { warnings, add, acknowledge };
}

/** A proctor's warning, shown at once over the exam until the candidate acknowledges it; read out by screen readers. */
export function WarningDialog({
  warnings,
  onAcknowledge,
}: {
  warnings: WarningView[];
  onAcknowledge: (id: number) => void;
}) {
  const { t } = useI18n();
  const current = warnings[0];
  return (
    <Dialog
      open={current !== undefined}
      title={
        <>
          <Icon name="error" style={{ color: 'var(--ui-danger)' }} />
          {t('warning.title')}
        </>
      }
      footer={
        <Button
          type="primary"
          danger
          autoFocus
          onClick={() => current && onAcknowledge(current.id)}
          data-testid="warning-ack"
        >
          {t('warning.acknowledge')}
        </Button>
      }
    >
      {current && (
        <div role="alert" aria-live="assertive" data-testid="proctor-warning" data-warning-id={current.id}>
          <Paragraph strong style={{ fontSize: 16, whiteSpace: 'pre-wrap' }}>
            {current.text}
          </Paragraph>
          <Text type="secondary">
            {t('warning.sentAt', { time: serverTime(current.time) })}
            {warnings.length > 1 ? ` · ${t('warning.more', { n: warnings.length - 1 })}` : ''}
          </Text>
        </div>
      )}
    </Dialog>
  );
}

/**
 * Fullscreen: before the candidate has entered it, a banner with a button (fullscreen needs a click);
 * after they left it, a dialog that stays until they return.
 */
export function FullscreenPrompt(props: { fullscreen: boolean; left: boolean; onEnter: () => Promise<boolean> }) {
  const { t } = useI18n();
  const [refused, setRefused] = useState(false);
  const enter = () => {
    void props.onEnter().then((ok) => setRefused(!ok));
  };
  if (props.fullscreen) return null;
  const refusedNote = refused ? (
    <Paragraph type="danger" data-testid="fullscreen-refused">
      {t('risk.fullscreen.refused')}
    </Paragraph>
  ) : null;
  if (props.left) {
    return (
      <Dialog
        open
        title={t('risk.fullscreen.leftTitle')}
        footer={
          <Button type="primary" icon={<Icon name="fullscreen" />} onClick={enter} data-testid="fullscreen-return">
            {t('risk.fullscreen.return')}
          </Button>
        }
      >
        <div role="alert" data-testid="fullscreen-left">
          <Paragraph>{t('risk.fullscreen.leftBody')}</Paragraph>
          {refusedNote}
        </div>
      </Dialog>
    );
  }
  return (
    <Alert
      type="info"
      title={t('risk.fullscreen.ask')}
      description={refusedNote}
      action={
        <Button
          size="small"
          type="primary"
          icon={<Icon name="fullscreen" />}
          onClick={enter}
          data-testid="fullscreen-enter"
        >
          {t('risk.fullscreen.enter')}
        </Button>
      }
      data-testid="fullscreen-ask"
    />
  );
}

/** After a counted screen switch: how many are left before the exam is submitted. */
export function SwitchNotice({ left, onClose }: { left: number | null; onClose: () => void }) {
  const { t } = useI18n();
  if (left === null) return null;
  return (
    <Alert
      type={left > 0 ? 'warning' : 'error'}
      onClose={onClose}
      closeLabel={t('risk.switch.dismiss')}
      title={left > 0 ? t('risk.switch.counted', { n: left }) : t('risk.switch.last')}
      data-testid="switch-notice"
      data-left={left}
    />
  );
}
