import { Alert } from 'antd';
import { useEffect, useState } from 'react';
import { formatDuration, serverNow } from '../../exam/clock.js';
import type { StartWait } from '../../exam/startWave.js';
import { useI18n } from '../../i18n/index.js';
import { serverTime } from '../../shell/serverTime.js';

/** What the page waits for before it presses start again by itself: the opening, or the queue's turn. */
export function StartWaitNotice({ wait }: { wait: StartWait }) {
  const { t } = useI18n();
  const [now, setNow] = useState(serverNow);
  useEffect(() => {
    const timer = setInterval(() => setNow(serverNow()), 1000);
    return () => clearInterval(timer);
  }, []);
  const left = formatDuration(Math.max(0, wait.at - now));
  return (
    <Alert
      type="info"
      showIcon
      role="status"
      style={{ marginBottom: 16 }}
      data-testid="start-wait"
      data-kind={wait.kind}
      data-place={wait.kind === 'queue' ? wait.place : undefined}
      title={
        wait.kind === 'opening'
          ? t('monitor.waitOpening', { time: serverTime(wait.opensAt) })
          : t('monitor.waitQueue', { place: wait.place })
      }
      description={t('monitor.waitAuto', { left })}
    />
  );
}
