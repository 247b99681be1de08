import { api, ExamPhase, type ProctorAttemptData, type ProctorTile } from '@examhall/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Descriptions, Drawer, Space } from 'antd';
import { request } from '../../../api/client.js';
import { useI18n } from '../../../i18n/index.js';
import { can, useStaffMe } from '../../../session/staff.js';
import { EndAttempt } from './attempt/EndAttempt.js';
import { IdPhoto } from './attempt/IdPhoto.js';
import { Timeline } from './attempt/Timeline.js';
import { WarnForm } from './attempt/WarnForm.js';
import { Warnings } from './attempt/Warnings.js';
import { attemptKey, remaining } from './liveGrid.js';
import { timeOfDay } from './labels.js';

/** One attempt: its timeline of risk events and evidence, warnings, and the proctor's actions. */
export function AttemptDrawer({
  attemptId,
  tile,
  now,
  onClose,
}: {
  attemptId: number | null;
  /** The live tile, fresher than the timeline's copy. */
  tile: ProctorTile | undefined;
  now: number;
  onClose: () => void;
}) {
  const { t } = useI18n();
  const data = useQuery({
    queryKey: attemptKey(attemptId ?? 0),
    queryFn: ({ signal }) => request(api.proctorAttempt, { query: { attempt_id: attemptId ?? 0 }, signal }),
    enabled: attemptId !== null,
  });
  const shown = tile ?? data.data?.tile;
  return (
    <Drawer
      open={attemptId !== null}
      onClose={onClose}
      size={720}
      title={shown ? t('console.proctor.attemptTitle', { name: shown.name }) : t('common.loading')}
      destroyOnHidden
    >
      <div data-testid="proctor-attempt">
        {data.isError && <Alert type="error" showIcon title={t('common.loadFailed', { msg: data.error.message })} />}
        {data.data && shown && <AttemptBody data={data.data} tile={shown} now={now} />}
      </div>
    </Drawer>
  );
}

function AttemptBody({ data, tile, now }: { data: ProctorAttemptData; tile: ProctorTile; now: number }) {
  const { t } = useI18n();
  const me = useStaffMe();
  const open = tile.phase !== ExamPhase.submit;
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Descriptions size="small" column={2} bordered>
        <Descriptions.Item label={t('console.proctor.candidate')}>{tile.name}</Descriptions.Item>
        <Descriptions.Item label={t('console.proctor.phone')}>{tile.phone}</Descriptions.Item>
        <Descriptions.Item label={t('console.proctor.state')}>
          {tile.phase === ExamPhase.exam && tile.end_time !== null
            ? t('console.proctor.timeLeft', { time: remaining(tile.end_time, now) })
            : t(`console.proctor.phase.${tile.phase}`)}
        </Descriptions.Item>
        <Descriptions.Item label={t('console.proctor.presence')}>
          {tile.online ? t('console.proctor.online') : t('console.proctor.offline')}
          {tile.last_seen !== null && ` · ${t('console.proctor.lastSeen', { time: timeOfDay(tile.last_seen) })}`}
        </Descriptions.Item>
        {data.finish_reason && (
          <Descriptions.Item label={t('console.proctor.finishReason')} span={2}>
            <span data-testid="proctor-finish-reason">{finishText(t, data.finish_reason)}</span>
          </Descriptions.Item>
        )}
      </Descriptions>
      <IdPhoto
        examId={data.exam_id}
        attemptId={tile.attempt_id}
        url={data.id_photo_url}
        canSet={can(me.data, 'proctor.decide')}
      />
      {open && can(me.data, 'proctor.watch') && <WarnForm attemptId={tile.attempt_id} />}
      {open && can(me.data, 'proctor.decide') && <EndAttempt attemptId={tile.attempt_id} name={tile.name} />}
      <Warnings warnings={data.warnings} />
      <Timeline records={data.records} canDecide={can(me.data, 'proctor.decide')} />
    </Space>
  );
}

/** How an attempt ended, in words; a proctor's reason is shown as they wrote it. */
function finishText(t: ReturnType<typeof useI18n>['t'], reason: string): string {
  if (reason.startsWith('proctor: ')) return t('console.proctor.endedBy', { reason: reason.slice(9) });
  if (reason === 'submit' || reason === 'timeout' || reason === 'cuts' || reason === 'proctor') {
    return t(`console.proctor.finish.${reason}`);
  }
  return reason;
}
