import {
  api,
  CreateSsoGroupBody,
  enumOptions,
  enumText,
  ROLE_TEXTS,
  STAFF_ROLES,
  type SsoGroupView,
  type SsoSetupView,
  type StaffRole,
} from '@examhall/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Card,
  Descriptions,
  Empty,
  Input,
  Popconfirm,
  Select,
  Space,
  Switch,
  Table,
  Typography,
  type TableColumnsType,
} from 'antd';
import { useState } from 'react';
import { errorText, request } from '../../../api/client.js';
import { useI18n } from '../../../i18n/index.js';
import { Form } from '../../../shell/Form.js';
import { LoadError } from '../shared/PageTitle.js';
import { zodRule } from '../shared/zodRule.js';
import { STAFF_LIST_KEY, useStaffList } from './queries.js';
import { TeamSelect } from './TeamSelect.js';

/** Query key of the group mappings. */
const GROUPS_KEY = ['admin', 'sso', 'groups'] as const;
/** Query key of the single sign-on settings. */
const SETTINGS_KEY = ['admin', 'sso', 'settings'] as const;

/** Single sign-on: how the provider is set up, its groups mapped to teams and roles, and whether it is required. */
export function SsoPanel() {
  const { t } = useI18n();
  const settings = useQuery({
    queryKey: SETTINGS_KEY,
    queryFn: ({ signal }) => request(api.ssoSettings, { signal }),
  });
  const data = settings.data;
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }} data-testid="sso-panel">
      <Typography.Paragraph type="secondary">{t('sso.about')}</Typography.Paragraph>
      <LoadError error={settings.error} />
      {data && !data.oidc && !data.saml && <Alert type="info" showIcon title={t('sso.notConfigured')} />}
      {data?.oidc && <SetupCard title={t('sso.setup.oidc')} setup={data.oidc} createAccounts={data.create_accounts} />}
      {data?.saml && <SetupCard title={t('sso.setup.saml')} setup={data.saml} createAccounts={data.create_accounts} />}
      <GroupMappings />
      {data && (data.oidc || data.saml) && (
        <PolicyCard
          key={`${data.required}-${data.break_glass.join()}`}
          required={data.required}
          breakGlass={data.break_glass}
        />
      )}
    </Space>
  );
}

function SetupCard({ title, setup, createAccounts }: { title: string; setup: SsoSetupView; createAccounts: boolean }) {
  const { t } = useI18n();
  return (
    <Card title={<h2 style={{ fontSize: 16, margin: 0 }}>{`${t('sso.setup.title')}: ${title} (${setup.name})`}</h2>}>
      <Descriptions column={1} size="small">
        <Descriptions.Item label={t('sso.setup.issuer')}>{setup.issuer}</Descriptions.Item>
        <Descriptions.Item label={t('sso.setup.callback')}>
          <Typography.Text copyable>{setup.callback_url}</Typography.Text>
        </Descriptions.Item>
        {setup.metadata_url && (
          <Descriptions.Item label={t('sso.setup.metadata')}>
            <Typography.Text copyable>{setup.metadata_url}</Typography.Text>
          </Descriptions.Item>
        )}
        <Descriptions.Item label={t('sso.setup.account')}>
          {t(setup.account_kind === 'phone' ? 'sso.setup.accountPhone' : 'sso.setup.accountEmail', {
            claim: setup.account_claim,
          })}
        </Descriptions.Item>
        <Descriptions.Item label={t('sso.setup.groups')}>
          <Typography.Text code>{setup.groups_claim}</Typography.Text>
        </Descriptions.Item>
        <Descriptions.Item label={t('sso.setup.createAccounts')}>
          {t(createAccounts ? 'sso.setup.yes' : 'sso.setup.no')}
        </Descriptions.Item>
      </Descriptions>
    </Card>
  );
}

interface GroupForm {
  group: string;
  team_id: number | null;
  role: StaffRole;
}

function GroupMappings() {
  const { t, lang } = useI18n();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const groups = useQuery({ queryKey: GROUPS_KEY, queryFn: ({ signal }) => request(api.ssoGroupList, { signal }) });
  const [form] = Form.useForm<GroupForm>();
  const [error, setError] = useState<string | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: GROUPS_KEY });
  const create = useMutation({
    mutationFn: (body: GroupForm) => request(api.ssoGroupCreate, { body }),
    onSuccess: () => {
      form.resetFields();
      void message.success(t('sso.groups.added'));
      refresh();
    },
    onError: (e) => setError(errorText(e)),
  });
  const remove = useMutation({
    mutationFn: (id: number) => request(api.ssoGroupDelete, { body: { id } }),
    onSuccess: () => {
      void message.success(t('sso.groups.removed'));
      refresh();
    },
    onError: (e) => void message.error(errorText(e)),
  });
  const columns: TableColumnsType<SsoGroupView> = [
    {
      title: t('sso.groups.col.group'),
      dataIndex: 'group',
      // Names the row's remove button's purpose (its description), the button itself keeping its visible name.
      render: (group: string, g) => <span id={`sso-group-${g.id}`}>{group}</span>,
    },
    {
      title: t('sso.groups.col.team'),
      dataIndex: 'team_name',
      render: (name: string | null) => name ?? t('sso.groups.allTeams'),
    },
    {
      title: t('sso.groups.col.role'),
      dataIndex: 'role',
      render: (role: StaffRole) => enumText(ROLE_TEXTS, role, lang),
    },
    {
      title: t('console.common.actions'),
      key: 'actions',
      render: (_, g) => (
        <Popconfirm title={t('sso.groups.removeConfirm')} onConfirm={() => remove.mutate(g.id)}>
          <Button size="small" danger aria-describedby={`sso-group-${g.id}`} data-testid={`sso-group-remove-${g.id}`}>
            {t('sso.groups.remove')}
          </Button>
        </Popconfirm>
      ),
    },
  ];
  return (
    <Card title={<h2 style={{ fontSize: 16, margin: 0 }}>{t('sso.groups.title')}</h2>}>
      <LoadError error={groups.error} />
      <div data-testid="sso-groups-table">
        <Table<SsoGroupView>
          rowKey="id"
          columns={columns}
          dataSource={groups.data?.list ?? []}
          loading={groups.isPending}
          pagination={false}
          scroll={{ x: true }}
          locale={{ emptyText: <Empty description={t('sso.groups.empty')} /> }}
        />
      </div>
      <Form<GroupForm>
        form={form}
        layout="inline"
        style={{ marginTop: 16, rowGap: 8 }}
        initialValues={{ team_id: null, role: 'author' }}
        onFinish={(v) => create.mutate({ ...v, group: v.group.trim() })}
        onValuesChange={() => setError(null)}
        data-testid="sso-group-form"
      >
        <Form.Item
          name="group"
          label={t('sso.groups.col.group')}
          rules={[zodRule(CreateSsoGroupBody.shape.group, t('sso.groups.groupRequired'))]}
        >
          <Input maxLength={200} style={{ width: 220 }} data-testid="sso-group-name" />
        </Form.Item>
        <Form.Item name="team_id" label={t('sso.groups.col.team')}>
          <TeamSelect testId="sso-group-team" noneLabel="sso.groups.allTeams" />
        </Form.Item>
        <Form.Item name="role" label={t('sso.groups.col.role')}>
          <Select
            style={{ width: 140 }}
            options={enumOptions(ROLE_TEXTS, STAFF_ROLES, lang)}
            data-testid="sso-group-role"
          />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={create.isPending} data-testid="sso-group-submit">
          {t('sso.groups.add')}
        </Button>
      </Form>
      {error && (
        <Typography.Paragraph type="danger" role="alert" style={{ marginTop: 8 }} data-testid="sso-group-error">
          {error}
        </Typography.Paragraph>
      )}
    </Card>
  );
}

function PolicyCard(props: { required: boolean; breakGlass: number[] }) {
  const { t } = useI18n();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const staff = useStaffList();
  const [required, setRequired] = useState(props.required);
  const [breakGlass, setBreakGlass] = useState<number[]>(props.breakGlass);
  const save = useMutation({
    mutationFn: () => request(api.ssoSettingsUpdate, { body: { required, break_glass: breakGlass } }),
    onSuccess: (data) => {
      queryClient.setQueryData(SETTINGS_KEY, data);
      void queryClient.invalidateQueries({ queryKey: STAFF_LIST_KEY });
      void message.success(t('sso.policy.saved'));
    },
  });
  const admins = (staff.data?.list ?? []).filter((s) => s.role === 'admin' && !s.disabled);
  return (
    <Card title={<h2 style={{ fontSize: 16, margin: 0 }}>{t('sso.policy.title')}</h2>}>
      <Space orientation="vertical" style={{ width: '100%' }}>
        <Space>
          <Switch
            checked={required}
            onChange={setRequired}
            aria-label={t('sso.policy.required')}
            data-testid="sso-required"
          />
          <Typography.Text>{t('sso.policy.required')}</Typography.Text>
        </Space>
        <Typography.Text type="secondary">{t('sso.policy.requiredHint')}</Typography.Text>
        <label htmlFor="sso-break-glass">{t('sso.policy.breakGlass')}</label>
        <Select<number[]>
          id="sso-break-glass"
          mode="multiple"
          style={{ maxWidth: 480 }}
          value={breakGlass}
          onChange={setBreakGlass}
          loading={staff.isPending}
          options={admins.map((a) => ({ value: a.id, label: `${a.name} (${a.phone})` }))}
          data-testid="sso-break-glass"
        />
        {save.isError && <Typography.Text type="danger">{errorText(save.error)}</Typography.Text>}
        <Button type="primary" onClick={() => save.mutate()} loading={save.isPending} data-testid="sso-policy-save">
          {t('sso.policy.save')}
        </Button>
      </Space>
    </Card>
  );
}
