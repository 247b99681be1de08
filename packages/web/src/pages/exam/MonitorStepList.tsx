import { MinusCircleOutlined } from '@ant-design/icons';
import { Alert, Steps, Tag } from 'antd';
import type { ExamStep } from '../../exam/steps.js';
import { useI18n } from '../../i18n/index.js';
import type { StepStatus } from '../../proctor/steps/progress.js';

/** The exam's checks in order, each required or skippable, and passed (已完成) apart from skipped (已跳过). */
export function MonitorStepList({ steps, statuses }: { steps: ExamStep[]; statuses: StepStatus[] | null }) {
  const { t } = useI18n();
  return (
    <ol className="step-list" data-testid="monitor-steps">
      {steps.map((s, i) => {
        const status = statuses?.[i] ?? 'waiting';
        return (
          <li
            key={s.id}
            data-testid="monitor-step"
            data-step={s.key}
            data-state={status}
            aria-current={status === 'current' ? 'step' : undefined}
          >
            <span>{t(`monitor.step.${s.key}`)}</span>{' '}
            <Tag color={s.skippable ? 'default' : 'blue'}>
              {s.skippable ? t('monitor.skippable') : t('monitor.required')}
            </Tag>
            {status === 'passed' && <Tag color="green">{t('proctor.stepDone')}</Tag>}
            {status === 'skipped' && (
              <Tag color="orange" data-testid="step-skipped">
                {t('proctor.stepSkipped')}
              </Tag>
            )}
          </li>
        );
      })}
    </ol>
  );
}

/**
 * The checks as a progress bar: a passed step gets antd's check mark, a skipped one a mark of its own (never the
 * passed one's) and the word 已跳过 beside its name.
 */
export function MonitorStepBar({ steps, statuses }: { steps: ExamStep[]; statuses: StepStatus[] | null }) {
  const { t } = useI18n();
  const current = statuses ? statuses.indexOf('current') : 0;
  return (
    <Steps
      size="small"
      current={current === -1 ? steps.length : Math.max(0, current)}
      items={steps.map((s, i) =>
        statuses?.[i] === 'skipped'
          ? {
              title: t(`monitor.step.${s.key}`),
              subTitle: t('proctor.stepSkipped'),
              status: 'finish',
              icon: <MinusCircleOutlined style={{ color: '#ad4e00' }} aria-hidden />,
              className: 'steps-item-skipped',
            }
          : { title: t(`monitor.step.${s.key}`) },
      )}
      style={{ margin: '16px 0' }}
      aria-hidden
      data-testid="monitor-step-bar"
    />
  );
}

/** The notice once every check is settled: all passed, or how many passed and how many were skipped. */
export function ChecksDoneNotice({ statuses }: { statuses: StepStatus[] }) {
  const { t } = useI18n();
  const skipped = statuses.filter((s) => s === 'skipped').length;
  const passed = statuses.filter((s) => s === 'passed').length;
  return skipped === 0 ? (
    <Alert type="success" showIcon role="status" title={t('proctor.allDone')} data-testid="checks-done-notice" />
  ) : (
    <Alert
      type="warning"
      showIcon
      role="status"
      title={t('proctor.doneWithSkips', { passed, skipped })}
      description={t('proctor.skipsRecorded')}
      data-testid="checks-done-notice"
      data-skipped={skipped}
    />
  );
}
