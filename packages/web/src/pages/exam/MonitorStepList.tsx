import { Tag } from 'antd';
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
