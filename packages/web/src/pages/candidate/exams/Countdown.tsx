import { formatDuration } from '../../../exam/clock.js';
import { countdownParts, opensIn } from '../../../exam/listState.js';
import { useI18n } from '../../../i18n/index.js';

/** Time left until the candidate's window opens, on the server's clock; nothing once it has opened. */
export function Countdown({ windowStart, now }: { windowStart: number; now: number }) {
  const { t } = useI18n();
  const left = opensIn({ window_start: windowStart }, now);
  if (left === null) return null;
  const { days } = countdownParts(left);
  const hms = formatDuration(left - days * 86_400_000);
  const time = days > 0 ? t('exams.countdownDays', { d: days, hms }) : hms;
  // The visible text ticks every second; screen readers hear it only when asked (no live region per tick).
  return (
    <span className="exam-countdown" data-testid="exam-countdown" data-left={left}>
      {t('exams.opensIn', { time })}
    </span>
  );
}
