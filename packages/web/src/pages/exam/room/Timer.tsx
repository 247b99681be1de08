import { useEffect, useRef, useState } from 'react';
import { crossedMilestone, formatDuration, serverNow, useRemaining } from '../../../exam/clock.js';
import { useI18n } from '../../../i18n/index.js';

/** The countdown on the server's clock. Screen readers hear it only at the milestones, not every second. */
export function Timer({ endTime, onTimeUp }: { endTime: number | null; onTimeUp: () => void }) {
  const { t } = useI18n();
  const remaining = useRemaining(endTime);
  const [announcement, setAnnouncement] = useState('');
  const previous = useRef<number | null>(null);
  const fired = useRef(false);
  useEffect(() => {
    if (remaining === null) return;
    const crossed = crossedMilestone(previous.current, remaining);
    previous.current = remaining;
    if (crossed !== null)
      setAnnouncement(crossed === 1 ? t('exam.milestoneOne') : t('exam.milestone', { min: crossed }));
    if (remaining === 0 && !fired.current) {
      fired.current = true;
      setAnnouncement(t('exam.timeUp'));
      onTimeUp();
    }
  }, [remaining, t, onTimeUp]);
  if (remaining === null) return null;
  return (
    <div className="exam-timer">
      <span className="timer-label">{t('exam.timeLeft')}</span>
      <span
        role="timer"
        aria-label={t('exam.timeLeftLabel', { time: formatDuration(remaining) })}
        className={remaining < 5 * 60_000 ? 'timer-value is-low' : 'timer-value'}
        data-testid="exam-timer"
        data-remaining-ms={remaining}
        data-server-now={serverNow()}
      >
        {formatDuration(remaining)}
      </span>
      <span className="visually-hidden" aria-live="assertive" data-testid="timer-announcement">
        {announcement}
      </span>
    </div>
  );
}
