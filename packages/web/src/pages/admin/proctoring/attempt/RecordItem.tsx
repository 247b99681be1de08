import type { FlagDecision, IntegrityRecord } from '@examhall/contract';
import { Image, Space, Tag, Typography } from 'antd';
import { detailText } from '../../../../i18n/detailText.js';
import { useI18n } from '../../../../i18n/index.js';
import { serverTime } from '../../../../shell/serverTime.js';
import { categoryName, eventName, timeOfDay } from '../labels.js';
import { DecideForm } from './DecideForm.js';

/** One timeline entry: when, what, its detail in words, its picture or recording, and the decision on a flag. */
export function RecordItem({ record: r, canDecide }: { record: IntegrityRecord; canDecide: boolean }) {
  const { t } = useI18n();
  const name = eventName(t, r);
  return (
    <div data-testid={`timeline-record-${r.id}`} data-kind={r.kind} style={{ display: 'grid', gap: 4 }}>
      <Space wrap>
        <Typography.Text type="secondary">{timeOfDay(r.trigger_time)}</Typography.Text>
        <Typography.Text strong>{name}</Typography.Text>
        {r.kind === 'risk' && <Tag>{categoryName(t, r.category)}</Tag>}
        {r.kind === 'risk' && <DecisionTag decision={r.decision} />}
      </Space>
      {r.detail && (
        <Typography.Text type="secondary" data-testid="timeline-detail">
          {detailText(t, r.detail)}
        </Typography.Text>
      )}
      {r.image_url && <Media record={r} name={name} />}
      {r.kind === 'risk' && r.decision_note && (
        <Typography.Text italic>{t('console.proctor.note', { note: r.decision_note })}</Typography.Text>
      )}
      {r.kind === 'risk' && r.candidate_note && (
        <Typography.Text italic>{t('console.proctor.candidateNote', { note: r.candidate_note })}</Typography.Text>
      )}
      {r.kind === 'risk' && canDecide && <DecideForm record={r} />}
    </div>
  );
}

/** A recording plays in the browser's audio player; a picture opens large on a click. */
function Media({ record: r, name }: { record: IntegrityRecord; name: string }) {
  const { t } = useI18n();
  if (r.kind === 'byte') {
    return (
      <audio
        controls
        preload="metadata"
        src={r.image_url ?? undefined}
        aria-label={t('proctor.timeline.recording', { time: serverTime(r.trigger_time) })}
        data-testid={`timeline-audio-${r.id}`}
        style={{ width: 320, maxWidth: '100%' }}
      />
    );
  }
  return (
    <span data-testid={`timeline-picture-${r.id}`}>
      <Image
        src={r.image_url ?? undefined}
        width={160}
        alt={t('console.proctor.pictureAt', { event: name, time: serverTime(r.trigger_time) })}
        style={{ borderRadius: 4 }}
      />
    </span>
  );
}

function DecisionTag({ decision }: { decision: FlagDecision | null }) {
  const { t } = useI18n();
  if (decision === 'confirmed') return <Tag color="red">{t('integrity.decision.confirmed')}</Tag>;
  if (decision === 'dismissed') return <Tag color="green">{t('integrity.decision.dismissed')}</Tag>;
  return <Tag color="orange">{t('integrity.decision.pending')}</Tag>;
}
