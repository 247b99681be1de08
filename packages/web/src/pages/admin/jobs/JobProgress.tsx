import type { JobView } from '@examhall/contract';
import { Progress, Space, Typography } from 'antd';
import { useI18n, type MessageKey } from '../../../i18n/index.js';

/** A job's progress as a bar with its phase and counts ("Questions 12 / 40"). */
export function JobProgress({ job }: { job: Pick<JobView, 'progress' | 'state'> }) {
  const { t } = useI18n();
  const { done, total, phase } = job.progress;
  const percent = job.state === 'done' ? 100 : total > 0 ? Math.floor((done / total) * 100) : 0;
  const status = job.state === 'failed' ? 'exception' : job.state === 'done' ? 'success' : 'active';
  return (
    <Space orientation="vertical" size={0} style={{ width: '100%', minWidth: 160 }} data-testid="job-progress">
      <Progress percent={percent} size="small" status={status} aria-label={t('console.jobs.progress')} />
      {job.state === 'running' && (
        <Typography.Text type="secondary">
          {phaseLabel(t, phase)} {total > 0 ? `${done} / ${total}` : ''}
        </Typography.Text>
      )}
    </Space>
  );
}

/** Phases the console names; another handler's phase shows as it is. */
const PHASES: Record<string, MessageKey> = {
  read: 'console.jobs.phase.read',
  pictures: 'console.jobs.phase.pictures',
  questions: 'console.jobs.phase.questions',
  invitations: 'console.jobs.phase.invitations',
  rows: 'console.jobs.phase.rows',
  compute: 'console.jobs.phase.compute',
};

function phaseLabel(t: (key: MessageKey) => string, phase: string | null): string {
  if (phase === null) return '';
  const key = PHASES[phase];
  return key ? t(key) : phase;
}
