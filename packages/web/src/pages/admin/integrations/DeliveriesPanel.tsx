import {
  api,
  DELIVERY_STATES,
  type DeliveryListQuery,
  type DeliveryState,
  type DeliveryView,
} from '@examhall/contract';
import { useMutation } from '@tanstack/react-query';
import { App, Button, Card, Empty, Select, Space, Tag, Typography, type TableColumnsType } from 'antd';
import { errorText, request } from '../../../api/client.js';
import { useI18n, type MessageKey } from '../../../i18n/index.js';
import { serverTime } from '../../../shell/serverTime.js';
import { LoadError } from '../shared/PageTitle.js';
import { useListQuery } from '../shared/serverList.js';
import { ServerTable } from '../shared/ServerTable.js';
import { useDeliveries, useRefreshIntegrations, useWebhooks } from './queries.js';

const STATE_COLORS: Record<DeliveryState, string> = { pending: 'blue', delivered: 'green', failed: 'red' };

/** The log's filters: one address, one state. */
type Filters = Omit<DeliveryListQuery, 'endpoint_id' | 'status'> & { endpoint_id?: number; status?: DeliveryState };

/** The delivery log: each event to each address, filtered by address and state and paged on the server. */
export function DeliveriesPanel() {
  const { t } = useI18n();
  const endpoints = useWebhooks();
  const { query, set, table } = useListQuery<Filters>({});
  const list = useDeliveries(query);
  const filtered = query.endpoint_id !== undefined || query.status !== undefined;
  const columns: TableColumnsType<DeliveryView> = [
    { title: t('console.integrations.created'), key: 'created', render: (_: unknown, d) => serverTime(d.created_at) },
    {
      title: t('console.integrations.event'),
      key: 'event',
      render: (_: unknown, d) => (
        <Space orientation="vertical" size={0}>
          <Typography.Text code>{d.event}</Typography.Text>
          <Typography.Text type="secondary" style={{ wordBreak: 'break-all' }}>
            {d.endpoint_url}
          </Typography.Text>
        </Space>
      ),
    },
    {
      title: t('console.integrations.attempt'),
      key: 'attempt',
      render: (_: unknown, d) => (d.attempt_id === null ? '' : `#${d.attempt_id}`),
    },
    { title: t('console.integrations.score'), key: 'score', render: (_: unknown, d) => d.score ?? '' },
    {
      title: t('console.integrations.status'),
      key: 'status',
      render: (_: unknown, d) => (
        <Tag color={STATE_COLORS[d.status]} data-testid={`delivery-status-${d.id}`}>
          {t(`console.integrations.status.${d.status}` as MessageKey)}
        </Tag>
      ),
    },
    { title: t('console.integrations.tries'), key: 'tries', dataIndex: 'attempts' },
    {
      title: t('console.integrations.lastError'),
      key: 'error',
      render: (_: unknown, d) => (
        <Typography.Text type="danger">
          {d.last_error || (d.last_status !== null && d.status !== 'delivered' ? `HTTP ${d.last_status}` : '')}
        </Typography.Text>
      ),
    },
    {
      title: t('console.integrations.nextAt'),
      key: 'next',
      render: (_: unknown, d) => (d.next_at === null ? '' : serverTime(d.next_at)),
    },
    {
      title: '',
      key: 'actions',
      render: (_: unknown, d) => (d.event === 'ping' || d.status === 'pending' ? null : <Redeliver delivery={d} />),
    },
  ];
  return (
    <Card title={<h2 style={{ fontSize: 16, margin: 0 }}>{t('console.integrations.deliveries')}</h2>}>
      <Space wrap style={{ marginBottom: 16 }}>
        <Select<number>
          allowClear
          style={{ minWidth: 260 }}
          placeholder={t('console.integrations.allEndpoints')}
          aria-label={t('console.integrations.url')}
          value={query.endpoint_id}
          onChange={(v?: number) => set({ endpoint_id: v })}
          options={(endpoints.data?.list ?? []).map((e) => ({ value: e.id, label: e.url }))}
          data-testid="deliveries-endpoint"
        />
        <Select<DeliveryState>
          allowClear
          style={{ minWidth: 160 }}
          placeholder={t('console.integrations.allStatuses')}
          aria-label={t('console.integrations.status')}
          value={query.status}
          onChange={(v?: DeliveryState) => set({ status: v })}
          options={DELIVERY_STATES.map((s) => ({
            value: s,
            label: t(`console.integrations.status.${s}` as MessageKey),
          }))}
          data-testid="deliveries-status"
        />
      </Space>
      <LoadError error={list.error} />
      {list.data && (
        <Typography.Paragraph type="secondary" data-testid="deliveries-kept">
          {t('console.integrations.keptDays', { n: list.data.kept_days })}
        </Typography.Paragraph>
      )}
      <div data-testid="deliveries-table">
        <ServerTable
          columns={columns}
          list={list}
          state={table}
          scroll={{ x: true }}
          empty={
            <Empty
              description={
                filtered ? t('console.integrations.noDeliveriesMatch') : t('console.integrations.noDeliveries')
              }
            />
          }
        />
      </div>
    </Card>
  );
}

/** Sends a delivered or given-up event to its address again. */
function Redeliver({ delivery }: { delivery: DeliveryView }) {
  const { t } = useI18n();
  const { message } = App.useApp();
  const refresh = useRefreshIntegrations();
  const again = useMutation({
    mutationFn: () => request(api.webhookRedeliver, { body: { id: delivery.id } }),
    onSuccess: () => {
      void message.success(t('console.integrations.redelivered'));
      refresh();
    },
    onError: (e) => void message.error(errorText(e)),
  });
  return (
    <Button
      size="small"
      loading={again.isPending}
      onClick={() => again.mutate()}
      data-testid={`delivery-redeliver-${delivery.id}`}
    >
      {t('console.integrations.redeliver')}
    </Button>
  );
}
