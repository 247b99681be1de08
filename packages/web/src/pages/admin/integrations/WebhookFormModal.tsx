import { api, WebhookSecret, WebhookUrl, type WebhookEndpointView, type WebhookSaveBody } from '@examhall/contract';
import { useMutation } from '@tanstack/react-query';
import { App, Button, Input, Modal, Space, Switch } from 'antd';
import { Form } from '../../../shell/Form.js';
import { useState } from 'react';
import { errorText, request } from '../../../api/client.js';
import { useI18n } from '../../../i18n/index.js';
import { FormError } from '../../../shell/FormError.js';
import { zodRule } from '../shared/zodRule.js';
import { useRefreshIntegrations } from './queries.js';
import { ScopeSelect } from './ScopeSelect.js';

interface WebhookForm {
  url: string;
  secret: string;
  team_id: number | null;
  description: string;
  enabled: boolean;
}

/** A random secret (32 bytes, base64url), made in the browser so it never travels before it is saved. */
function newSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

/** Adds a webhook address (`endpoint` absent) or edits one; checked as the admin types. */
export function WebhookFormModal(props: { endpoint: WebhookEndpointView | null; open: boolean; onClose: () => void }) {
  const { t } = useI18n();
  const { message } = App.useApp();
  const refresh = useRefreshIntegrations();
  const [form] = Form.useForm<WebhookForm>();
  const [error, setError] = useState<string | null>(null);
  const editing = props.endpoint !== null;
  const save = useMutation({
    mutationFn: (body: WebhookSaveBody) => request(api.webhookSave, { body }),
    onSuccess: () => {
      void message.success(t('console.integrations.saved'));
      refresh();
      props.onClose();
    },
    onError: (e) => setError(errorText(e)),
  });
  const onFinish = (v: WebhookForm) =>
    save.mutate({
      ...(props.endpoint ? { id: props.endpoint.id } : {}),
      url: v.url.trim(),
      ...(v.secret ? { secret: v.secret } : {}),
      team_id: v.team_id,
      description: v.description.trim(),
      enabled: v.enabled,
    });
  return (
    <Modal
      open={props.open}
      title={editing ? t('console.integrations.editTitle') : t('console.integrations.addTitle')}
      onCancel={props.onClose}
      onOk={() => form.submit()}
      okText={t('console.integrations.save')}
      okButtonProps={{ loading: save.isPending, ...({ 'data-testid': 'webhook-save' } as Record<string, string>) }}
      destroyOnHidden
    >
      <Form<WebhookForm>
        form={form}
        layout="vertical"
        preserve={false}
        initialValues={{
          url: props.endpoint?.url ?? '',
          secret: '',
          team_id: props.endpoint?.team_id ?? null,
          description: props.endpoint?.description ?? '',
          enabled: props.endpoint?.enabled ?? true,
        }}
        onFinish={onFinish}
        onValuesChange={() => setError(null)}
        data-testid="webhook-form"
      >
        <Form.Item
          name="url"
          required
          label={t('console.integrations.url')}
          validateTrigger="onChange"
          rules={[zodRule(WebhookUrl, t('console.integrations.urlInvalid'))]}
        >
          <Input placeholder="https://ats.example.com/hooks/examhall" data-testid="webhook-url" />
        </Form.Item>
        <Form.Item
          label={t('console.integrations.secret')}
          required={!editing}
          extra={editing ? t('console.integrations.secretKeep') : t('console.integrations.secretHint')}
        >
          <Space.Compact style={{ width: '100%' }}>
            <Form.Item
              name="secret"
              noStyle
              validateTrigger="onChange"
              rules={[
                ...(editing ? [] : [{ required: true, message: t('console.integrations.secretRequired') }]),
                zodRule(WebhookSecret, t('console.integrations.secretInvalid'), (v) =>
                  v === '' || v === undefined ? (editing ? 'x'.repeat(16) : v) : v,
                ),
              ]}
            >
              {/* The label above names the row (input and button), not this input: it is named here. */}
              <Input.Password
                autoComplete="new-password"
                aria-label={t('console.integrations.secret')}
                data-testid="webhook-secret"
              />
            </Form.Item>
            <Button onClick={() => form.setFieldsValue({ secret: newSecret() })} data-testid="webhook-secret-generate">
              {t('console.integrations.generate')}
            </Button>
          </Space.Compact>
        </Form.Item>
        <Form.Item name="team_id" label={t('console.integrations.team')}>
          <ScopeSelect testId="webhook-team" />
        </Form.Item>
        <Form.Item name="description" label={t('console.integrations.description')}>
          <Input maxLength={200} data-testid="webhook-description" />
        </Form.Item>
        <Form.Item name="enabled" label={t('console.integrations.enabled')} valuePropName="checked">
          <Switch data-testid="webhook-enabled" />
        </Form.Item>
        <FormError error={error} testId="webhook-error" />
      </Form>
    </Modal>
  );
}
