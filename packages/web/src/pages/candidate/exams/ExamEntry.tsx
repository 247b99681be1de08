import { ExamMode, type ExamListItem } from '@examhall/contract';
import { Tag, Typography } from 'antd';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { listView, practiceAgain, type ListAction, type OwnState, type WindowState } from '../../../exam/listState.js';
import { useI18n, type MessageKey } from '../../../i18n/index.js';
import { serverTime } from '../../../shell/serverTime.js';
import { Countdown } from './Countdown.js';
import { PrepareList } from './PrepareList.js';
import { SlotPicker } from './SlotPicker.js';

const MODE_KEYS: Record<ExamListItem['mode'], MessageKey> = {
  [ExamMode.simulate]: 'exams.mode.simulate',
  [ExamMode.exam]: 'exams.mode.exam',
  [ExamMode.longTime]: 'exams.mode.longTime',
};

const MODE_COLORS: Record<ExamListItem['mode'], string> = {
  [ExamMode.simulate]: 'default',
  [ExamMode.exam]: 'blue',
  [ExamMode.longTime]: 'purple',
};

const WINDOW_COLORS: Record<WindowState, string> = { upcoming: 'default', open: 'green', ended: 'default' };
const OWN_COLORS: Record<OwnState, string> = {
  not_taken: 'default',
  in_progress: 'orange',
  submitted: 'cyan',
  absent: 'red',
};
const ACTION_KEYS: Record<NonNullable<ListAction>, MessageKey> = {
  checkIn: 'exams.checkIn',
  enter: 'exams.enter',
  continue: 'exams.continue',
  result: 'exams.viewResult',
};

/**
 * One exam: its facts, the candidate's own window (and where it comes from), slot and length, a countdown to
 * the opening, what to prepare, and what they can do now.
 */
export function ExamEntry({ exam, now }: { exam: ExamListItem; now: number }) {
  const { t } = useI18n();
  const view = listView({ start_at: exam.window_start, end_at: exam.window_end, state: exam.state }, now);
  const to = view.action === 'result' ? `/exam/${exam.id}/${exam.anid}/result` : `/exam/${exam.id}/${exam.anid}`;
  const needsSlot = exam.slot_choosable && exam.slot === null && view.own === 'not_taken';
  return (
    <li className="exam-item" data-testid="exam-item" data-exam={exam.id}>
      <Typography.Title level={3} style={{ fontSize: 16, margin: '0 0 8px' }} data-testid="exam-name">
        {exam.name}
      </Typography.Title>
      <dl className="exam-facts">
        <Field label={t('exams.col.mode')}>
          <Tag color={MODE_COLORS[exam.mode]}>{t(MODE_KEYS[exam.mode])}</Tag>
        </Field>
        <Field label={t('exams.col.time')}>
          <span data-testid="exam-time" data-minutes={exam.time}>
            {exam.extra_minutes > 0
              ? t('exams.timeExtra', { base: exam.base_time, extra: exam.extra_minutes })
              : t('common.minutes', { n: exam.time })}
          </span>
        </Field>
        <Field label={t('exams.col.ownWindow')}>
          {t('exams.windowRange', { from: serverTime(exam.window_start), to: serverTime(exam.window_end) })}{' '}
          <Typography.Text type="secondary">({t(`exams.source.${exam.window_source}`)})</Typography.Text>{' '}
          {/* Whether the window is open matters no more once the candidate handed in (it is among the finished). */}
          {view.own !== 'submitted' && (
            <Tag color={WINDOW_COLORS[view.window]} data-testid="exam-window" data-window={view.window}>
              {t(`exams.window.${view.window}`)}
            </Tag>
          )}
        </Field>
        <SlotField exam={exam} />
        <Field label={t('exams.col.state')}>
          <Tag color={OWN_COLORS[view.own]} data-testid="exam-state" data-state={exam.state} data-own={view.own}>
            {t(`exams.own.${view.own}`)}
          </Tag>
        </Field>
        {view.own === 'not_taken' && view.window !== 'ended' && (
          <Field label={t('exams.col.prepare')}>
            <PrepareList items={exam.prepare} />
          </Field>
        )}
      </dl>
      {view.window === 'upcoming' && <Countdown windowStart={exam.window_start} now={now} />}
      {needsSlot && <Typography.Paragraph type="warning">{t('exams.slot.pickFirst')}</Typography.Paragraph>}
      {view.action && !needsSlot && (
        <Link to={to} className="exam-enter" data-testid="exam-enter" data-action={view.action}>
          {t(ACTION_KEYS[view.action])}
        </Link>
      )}
      {practiceAgain(exam, now) && (
        <Link to={`/exam/${exam.id}/${exam.anid}`} className="exam-enter exam-again" data-testid="exam-again">
          {t('exams.practiceAgain')}
        </Link>
      )}
    </li>
  );
}

/** The candidate's slot and, where they may, the picker. */
function SlotField({ exam }: { exam: ExamListItem }) {
  const { t } = useI18n();
  if (!exam.slot && !exam.slot_choosable) return null;
  return (
    <Field label={t('exams.col.slot')}>
      <span data-testid="exam-slot">
        {exam.slot
          ? `${exam.slot.label ? `${exam.slot.label} · ` : ''}${t('exams.windowRange', {
              from: serverTime(exam.slot.start_at),
              to: serverTime(exam.slot.end_at),
            })}`
          : t('exams.noSlot')}
      </span>{' '}
      {exam.slot_choosable && <SlotPicker examId={exam.id} hasSlot={exam.slot !== null} />}
    </Field>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="exam-fact">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}
