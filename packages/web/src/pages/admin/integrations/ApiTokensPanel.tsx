import {
  api,
  API_TOKEN_SCOPE_TEXTS,
  ApiTokenCreateBody,
  enumText,
  type ApiTokenListQuery,
  type ApiTokenView,
} from '@examhall/contract';
import { useMutation } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Card,
  Checkbox,
  Empty,
  Input,
  Modal,
  Popconfirm,
  Tag,
  Typography,
  type TableColumnsType,
} from 'antd';
import { Form } from '../../../shell/Form.js';
import { useState } from 'react';
import { errorText, request } from '../../../api/client.js';
import { useI18n } from '../../../i18n/index.js';
import { FormError } from '../../../shell/FormError.js';
import { serverTime } from '../../../shell/serverTime.js';
import { LoadError } from '../shared/PageTitle.js';
import { useListQuery } from '../shared/serverList.js';
import { ServerTable } from '../shared/ServerTable.js';
import { zodRule } from '../shared/zodRule.js';
import { useApiTokens, useRefreshIntegrations } from './queries.js';
import { ScopeSelect } from './ScopeSelect.js';

/** API tokens: the list (paged on the server), create (the token shown once, with copy), revoke. */
export function ApiTokensPanel() {
  const { t, lang } = useI18n();
  const { query, set, table } = useListQuery<ApiTokenListQuery>({ show: 'live' });
  const [creating, setCreating] = useState(false);
  const list = useApiTokens(query);
  const columns: TableColumnsType<ApiTokenView> = [
    { title: t('console.integrations.tokenName'), key: 'name', dataIndex: 'name' },
    {
      title: t('console.integrations.tokenPrefix'),
      key: 'prefix',
      render: (_: unknown, k) => <Typography.Text code>{`${k.prefix}…`}</Typography.Text>,
    },
    {
      title: t('console.integrations.tokenScope'),
      key: 'scope',
      dataIndex: 'scope',
      render: (scope: ApiTokenView['scope']) => enumText(API_TOKEN_SCOPE_TEXTS, scope, lang),
    },
    {
      title: t('console.integrations.team'),
      key: 'team',
      render: (_: unknown, k) => k.team_name || t('console.integrations.allExams'),
    },
    { title: t('console.integrations.createdBy'), key: 'by', dataIndex: 'created_by_name' },
    { title: t('console.integrations.created'), key: 'created', render: (_: unknown, k) => serverTime(k.created_at) },
    {
      title: t('console.integrations.lastUsed'),
      key: 'used',
      render: (_: unknown, k) =>
        k.last_used_at === null ? t('console.integrations.never') : serverTime(k.last_used_at),
    },
    {
      title: '',
      key: 'actions',
      render: (_: unknown, k) =>
        k.revoked_at === null ? <Revoke token={k} /> : <Tag>{t('console.integrations.revoked')}</Tag>,
    },
  ];
  return (
    <Card
      title={<h2 style={{ fontSize: 16, margin: 0 }}>{t('console.integrations.tokens')}</h2>}
      extra={
        <Button type="primary" onClick={() => setCreating(true)} data-testid="token-create">
          {t('console.integrations.createToken')}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">{t('console.integrations.tokensHint')}</Typography.Paragraph>
      <Checkbox
        checked={query.show === 'all'}
        onChange={(e) => set({ show: e.target.checked ? 'all' : 'live' })}
        style={{ marginBottom: 16 }}
        data-testid="tokens-show-revoked"
      >
        {t('console.integrations.showRevoked')}
      </Checkbox>
      <LoadError error={list.error} />
      <div data-testid="tokens-table">
        <ServerTable
          columns={columns}
          list={list}
          state={table}
          scroll={{ x: true }}
          empty={<Empty description={t('console.integrations.noTokens')} />}
        />
      </div>
      <CreateTokenModal open={creating} onClose={() => setCreating(false)} />
    </Card>
  );
}

interface TokenForm {
  name: string;
  team_id: number | null;
}

/** Makes a token, then shows it this once with a copy button; closing forgets it. */
function CreateTokenModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useI18n();
  const refresh = useRefreshIntegrations();
  const [form] = Form.useForm<TokenForm>();
  const [error, setError] = useState<string | null>(null);
  const [made, setMade] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: (body: TokenForm) => request(api.apiTokenCreate, { body: { ...body, name: body.name.trim() } }),
    onSuccess: (r) => {
      setMade(r.token);
      refresh();
    },
    onError: (e) => setError(errorText(e)),
  });
  const close = () => {
    setMade(null);
    setError(null);
    onClose();
  };
  if (made !== null) {
    return (
      <Modal
        open={open}
        title={t('console.integrations.tokenCreated')}
        onCancel={close}
        footer={
          <Button type="primary" onClick={close} data-testid="token-done">
            {t('console.integrations.copied')}
          </Button>
        }
        destroyOnHidden
      >
        <Alert type="warning" showIcon title={t('console.integrations.tokenOnce')} style={{ marginBottom: 16 }} />
        <Typography.Paragraph
          copyable={{ text: made }}
          code
          style={{ wordBreak: 'break-all' }}
          data-testid="token-value"
        >
          {made}
        </Typography.Paragraph>
      </Modal>
    );
  }
  return (
    <Modal
      open={open}
      title={t('console.integrations.createToken')}
      onCancel={close}
      onOk={() => form.submit()}
      okButtonProps={{ loading: create.isPending, ...({ 'data-testid': 'token-submit' } as Record<string, string>) }}
      destroyOnHidden
    >
      <Form<TokenForm>
        form={form}
        layout="vertical"
        preserve={false}
        initialValues={{ name: '', team_id: null }}
        onFinish={(v) => create.mutate(v)}
        onValuesChange={() => setError(null)}
        data-testid="token-form"
      >
        <Form.Item
          name="name"
          required
          label={t('console.integrations.tokenName')}
          validateTrigger="onChange"
          rules={[zodRule(ApiTokenCreateBody.shape.name, t('console.integrations.tokenNameRequired'))]}
        >
          <Input maxLength={80} data-testid="token-name" />
        </Form.Item>
        <Form.Item name="team_id" label={t('console.integrations.team')}>
          <ScopeSelect testId="token-team" />
        </Form.Item>
        <FormError error={error} testId="token-error" />
      </Form>
    </Modal>
  );
}

/** Revokes a token once confirmed. */
function Revoke({ token }: { token: ApiTokenView }) {
  const { t } = useI18n();
  const { message } = App.useApp();
  const refresh = useRefreshIntegrations();
  const revoke = useMutation({
    mutationFn: () => request(api.apiTokenRevoke, { body: { id: token.id } }),
    onSuccess: refresh,
    onError: (e) => void message.error(errorText(e)),
  });
  return (
    <Popconfirm title={t('console.integrations.revokeConfirm')} onConfirm={() => revoke.mutate()}>
      <Button size="small" danger loading={revoke.isPending} data-testid={`token-revoke-${token.id}`}>
        {t('console.integrations.revoke')}
      </Button>
    </Popconfirm>
  );
}
