import { WarningOutlined } from '@ant-design/icons';
import { Card, List, Space, Typography } from 'antd';
import { detailText } from '../../../i18n/detailText.js';
import { useI18n } from '../../../i18n/index.js';
import type { LiveRisk } from './liveGrid.js';
import { eventName, timeOfDay } from './labels.js';

/** The exam's risk events, newest first: flags still waiting when the page opened, then what arrives live. */
export function RiskFeed(props: {
  risks: LiveRisk[];
  nameOf: (attemptId: number) => string | undefined;
  onOpen: (attemptId: number) => void;
}) {
  const { t } = useI18n();
  return (
    <Card title={t('console.proctor.latestRisks')} size="small">
      <List
        data-testid="proctor-risk-feed"
        locale={{ emptyText: <Typography.Text type="secondary">{t('console.proctor.noRisks')}</Typography.Text> }}
        dataSource={props.risks}
        renderItem={(r) => (
          <List.Item
            key={r.record.id}
            data-testid={`proctor-risk-${r.record.id}`}
            actions={[
              <a
                key="open"
                href={`#attempt-${r.attempt_id}`}
                onClick={(e) => {
                  e.preventDefault();
                  props.onOpen(r.attempt_id);
                }}
              >
                {t('console.proctor.openAttempt')}
              </a>,
            ]}
          >
            <Space wrap>
              <WarningOutlined aria-hidden style={{ color: '#cf1322' }} />
              <Typography.Text>{timeOfDay(r.record.trigger_time)}</Typography.Text>
              <Typography.Text strong>{props.nameOf(r.attempt_id) ?? r.name ?? `#${r.attempt_id}`}</Typography.Text>
              <Typography.Text>{eventName(t, r.record)}</Typography.Text>
              {r.record.detail && <Typography.Text type="secondary">{detailText(t, r.record.detail)}</Typography.Text>}
            </Space>
          </List.Item>
        )}
      />
    </Card>
  );
}
