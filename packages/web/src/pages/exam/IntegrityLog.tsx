import { type CandidateIntegrityRecord, monitorCalls } from '@examhall/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Card, Collapse, Empty, Image, Skeleton, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { errorText, request } from '../../api/client.js';
import { detailText } from '../../i18n/detailText.js';
import { useI18n, type MessageKey } from '../../i18n/index.js';
import { serverTime } from '../../shell/serverTime.js';
import '../../i18n/machine.js';

const DECISION_COLORS = { confirmed: 'red', dismissed: 'green', pending: 'default' } as const;

/** The name of a risk event id in the current language. */
export function useRiskName(): (id: number) => string {
  const { t } = useI18n();
  return (id) => {
    // An id outside the catalogue has no entry in the dictionaries.
    const name = t(`risk.name.${id}` as MessageKey) as string | undefined;
    return name ?? t('risk.name.unknown', { id });
  };
}

/**
 * The candidate's own integrity log after the exam: the risk events recorded, what the proctor
 * decided on each, the pictures taken at them, and the warnings received. It is read when the
 * candidate opens it, not with every result page.
 */
export function IntegrityLog({ examId }: { examId: number }) {
  const { t } = useI18n();
  const riskName = useRiskName();
  const [open, setOpen] = useState(false);
  const log = useQuery({
    queryKey: ['integrity-log', examId],
    queryFn: ({ signal }) => request(monitorCalls.integrityLog, { query: { exam_id: examId }, signal }),
    enabled: open,
  });
  const risks = (log.data?.records ?? []).filter((r) => r.kind === 'risk');
  const evidence = (log.data?.records.length ?? 0) - risks.length;

  const body = (
    <div data-testid="integrity-log">
      <Typography.Paragraph type="secondary">{t('integrity.intro')}</Typography.Paragraph>
      {log.isError && (
        <Alert
          type="error"
          showIcon
          role="alert"
          title={t('integrity.loadFailed', {
            msg: errorText(log.error),
          })}
        />
      )}
      {log.isPending && <Skeleton active />}
      {log.data && (
        <>
          <Table<CandidateIntegrityRecord>
            rowKey="id"
            size="small"
            pagination={false}
            dataSource={risks}
            locale={{ emptyText: <Empty description={t('integrity.empty')} /> }}
            scroll={{ x: true }}
            onRow={(r) => ({ 'data-testid': 'integrity-record', 'data-risk': r.risk }) as Record<string, unknown>}
            columns={[
              {
                title: t('integrity.time'),
                dataIndex: 'trigger_time',
                render: (v: number) => serverTime(v),
              },
              {
                title: t('integrity.event'),
                dataIndex: 'risk',
                render: (v: number) => <span data-testid="integrity-event">{riskName(v)}</span>,
              },
              {
                title: t('integrity.category'),
                dataIndex: 'category',
                render: (v: number) => <Tag>{(t(`risk.category.${v}` as MessageKey) as string | undefined) ?? v}</Tag>,
              },
              {
                title: t('integrity.detail'),
                dataIndex: 'detail',
                render: (v: string) => <span data-testid="integrity-detail">{detailText(t, v)}</span>,
              },
              {
                title: t('integrity.decision'),
                dataIndex: 'decision',
                render: (v: CandidateIntegrityRecord['decision'], r) => {
                  const d = v ?? 'pending';
                  return (
                    <>
                      <Tag color={DECISION_COLORS[d]} data-testid="integrity-decision" data-decision={d}>
                        {t(`integrity.decision.${d}`)}
                      </Tag>
                      {r.candidate_note && <Typography.Text type="secondary">{r.candidate_note}</Typography.Text>}
                    </>
                  );
                },
              },
              {
                title: t('integrity.picture'),
                dataIndex: 'image_url',
                render: (v: string | null, r) =>
                  v ? (
                    <Image
                      src={v}
                      width={96}
                      alt={t('integrity.pictureAlt', { event: riskName(r.risk), time: serverTime(r.trigger_time) })}
                    />
                  ) : null,
              },
            ]}
          />
          {evidence > 0 && (
            <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
              {t('integrity.evidence', { n: evidence })}
            </Typography.Paragraph>
          )}
          <Typography.Title level={3} style={{ fontSize: 16 }}>
            {t('integrity.warnings')}
          </Typography.Title>
          {log.data.warnings.length === 0 ? (
            <Typography.Paragraph type="secondary">{t('integrity.noWarnings')}</Typography.Paragraph>
          ) : (
            <ul data-testid="integrity-warnings">
              {log.data.warnings.map((w) => (
                <li key={w.id}>
                  <Typography.Text type="secondary">{serverTime(w.time)}</Typography.Text> {w.text}
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </div>
  );

  return (
    <Card style={{ marginTop: 16 }}>
      <Collapse
        ghost
        activeKey={open ? ['log'] : []}
        onChange={(keys) => setOpen(keys.includes('log'))}
        items={[
          {
            key: 'log',
            label: (
              <Typography.Title level={2} style={{ fontSize: 18, margin: 0 }} data-testid="integrity-toggle">
                {t('integrity.title')}
              </Typography.Title>
            ),
            children: body,
          },
        ]}
      />
    </Card>
  );
}
