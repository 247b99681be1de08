import type { IntegrityRecord } from '@examhall/contract';
import { Checkbox, Empty, Image, Select, Space, Timeline as AntTimeline, Typography } from 'antd';
import { useState } from 'react';
import { useI18n } from '../../../../i18n/index.js';
import { eventName } from '../labels.js';
import { RecordItem } from './RecordItem.js';

/** What the kind filter tells apart: each risk event on its own, and each kind of evidence. */
const kindOf = (r: IntegrityRecord) => (r.kind === 'risk' ? `risk:${r.risk}` : r.kind);

/** The attempt's records in chain order, filtered to flags only or to one kind. */
export function Timeline({ records, canDecide }: { records: IntegrityRecord[]; canDecide: boolean }) {
  const { t } = useI18n();
  const [flagsOnly, setFlagsOnly] = useState(false);
  const [kind, setKind] = useState<string>('all');
  const kinds = new Map(records.map((r) => [kindOf(r), eventName(t, r)]));
  const shown = records.filter((r) => (!flagsOnly || r.kind === 'risk') && (kind === 'all' || kindOf(r) === kind));
  return (
    <section aria-labelledby="proctor-timeline-title">
      <Typography.Title level={2} id="proctor-timeline-title" style={{ fontSize: 16 }}>
        {t('console.proctor.timeline')}
      </Typography.Title>
      {records.length === 0 ? (
        <Empty description={t('console.proctor.noRecords')} />
      ) : (
        <>
          <Space wrap style={{ marginBottom: 12 }}>
            <Checkbox
              checked={flagsOnly}
              onChange={(e) => setFlagsOnly(e.target.checked)}
              data-testid="timeline-flags-only"
            >
              {t('proctor.timeline.flagsOnly')}
            </Checkbox>
            <Select
              aria-label={t('proctor.timeline.kind')}
              value={kind}
              onChange={setKind}
              style={{ minWidth: 200 }}
              // A handful of kinds: every option rendered, so each is reachable by scrolling and by tests.
              virtual={false}
              options={[
                { value: 'all', label: t('proctor.timeline.allKinds') },
                ...[...kinds].map(([value, label]) => ({ value, label })),
              ]}
              data-testid="timeline-kind"
            />
          </Space>
          {shown.length === 0 ? (
            <Empty description={t('proctor.timeline.noMatch')} />
          ) : (
            <div data-testid="proctor-timeline">
              <Image.PreviewGroup>
                <AntTimeline
                  items={shown.map((r) => ({
                    key: r.id,
                    color: r.kind === 'risk' ? (r.decision === 'dismissed' ? 'gray' : 'red') : 'blue',
                    content: <RecordItem record={r} canDecide={canDecide} />,
                  }))}
                />
              </Image.PreviewGroup>
            </div>
          )}
        </>
      )}
    </section>
  );
}
