import { api, type WebhookEndpointView } from '@examhall/contract';
import { useMutation } from '@tanstack/react-query';
import { App, Button, Card, Empty, Popconfirm, Space, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { errorText, request } from '../../../api/client.js';
import { useI18n } from '../../../i18n/index.js';
import { LoadError } from '../shared/PageTitle.js';
import { useRefreshIntegrations, useWebhooks } from './queries.js';
import { WebhookFormModal } from './WebhookFormModal.js';

/** The webhook addresses: add, edit, send a test, delete. */
export function WebhooksPanel() {
  const { t } = useI18n();
  const list = useWebhooks();
  const [editing, setEditing] = useState<WebhookEndpointView | null>(null);
  const [open, setOpen] = useState(false);
  const edit = (e: WebhookEndpointView | null) => {
    setEditing(e);
    setOpen(true);
  };
  const columns: TableColumnsType<WebhookEndpointView> = [
    {
      title: t('console.integrations.url'),
      key: 'url',
      render: (_: unknown, e) => (
        <Space orientation="vertical" size={0}>
          <Typography.Text code style={{ wordBreak: 'break-all' }}>
            {e.url}
          </Typography.Text>
          {e.description ? <Typography.Text type="secondary">{e.description}</Typography.Text> : null}
        </Space>
      ),
    },
    {
      title: t('console.integrations.team'),
      key: 'team',
      render: (_: unknown, e) => e.team_name || t('console.integrations.allExams'),
    },
    {
      title: t('console.integrations.status'),
      key: 'state',
      render: (_: unknown, e) => (
        <Space orientation="vertical" size={0}>
          <Tag color={e.enabled ? 'green' : 'default'}>
            {e.enabled ? t('console.integrations.enabled') : t('console.integrations.paused')}
          </Tag>
          <Typography.Text type={e.failed > 0 ? 'danger' : 'secondary'}>
            {t('console.integrations.counts', { pending: e.pending, failed: e.failed })}
          </Typography.Text>
        </Space>
      ),
    },
    { title: '', key: 'actions', render: (_: unknown, e) => <WebhookActions endpoint={e} onEdit={() => edit(e)} /> },
  ];
  return (
    <Card
      title={<h2 style={{ fontSize: 16, margin: 0 }}>{t('console.integrations.webhooks')}</h2>}
      extra={
        <Button type="primary" onClick={() => edit(null)} data-testid="webhook-add">
          {t('console.integrations.add')}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">{t('console.integrations.webhooksHint')}</Typography.Paragraph>
      <LoadError error={list.error} />
      <div data-testid="webhooks-table">
        <Table<WebhookEndpointView>
          rowKey="id"
          columns={columns}
          dataSource={list.data?.list ?? []}
          loading={list.isPending && list.fetchStatus !== 'idle'}
          pagination={false}
          scroll={{ x: true }}
          locale={{ emptyText: <Empty description={t('console.integrations.noWebhooks')} /> }}
        />
      </div>
      <WebhookFormModal endpoint={editing} open={open} onClose={() => setOpen(false)} />
    </Card>
  );
}

/** One address's buttons: edit, test (its answer told at once), delete (confirmed). */
function WebhookActions({ endpoint, onEdit }: { endpoint: WebhookEndpointView; onEdit: () => void }) {
  const { t } = useI18n();
  const { message } = App.useApp();
  const refresh = useRefreshIntegrations();
  const test = useMutation({
    mutationFn: () => request(api.webhookTest, { body: { id: endpoint.id } }),
    onSuccess: (r) => {
      if (r.ok) void message.success(t('console.integrations.testOk', { status: r.status ?? '' }));
      else void message.error(t('console.integrations.testFailed', { error: r.error }));
      refresh();
    },
    onError: (e) => void message.error(errorText(e)),
  });
  const remove = useMutation({
    mutationFn: () => request(api.webhookDelete, { body: { id: endpoint.id } }),
    onSuccess: refresh,
    onError: (e) => void message.error(errorText(e)),
  });
  return (
    <Space wrap>
      <Button size="small" onClick={onEdit} data-testid={`webhook-edit-${endpoint.id}`}>
        {t('console.integrations.edit')}
      </Button>
      <Button
        size="small"
        loading={test.isPending}
        onClick={() => test.mutate()}
        data-testid={`webhook-test-${endpoint.id}`}
      >
        {t('console.integrations.test')}
      </Button>
      <Popconfirm title={t('console.integrations.deleteConfirm')} onConfirm={() => remove.mutate()}>
        <Button size="small" danger loading={remove.isPending} data-testid={`webhook-delete-${endpoint.id}`}>
          {t('console.integrations.delete')}
        </Button>
      </Popconfirm>
    </Space>
  );
}
