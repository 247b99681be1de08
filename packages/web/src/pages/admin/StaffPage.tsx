import {
  api,
  AREA_CODES,
  DEFAULT_AREA_CODE,
  STAFF_PASSWORD_MIN,
  STAFF_ROLES,
  type CreateStaffBody,
  type StaffView,
} from '@examhall/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Card,
  Form,
  Input,
  Select,
  Space,
  Table,
  Tag,
  Typography,
  type TableColumnsType,
} from 'antd';
import { useState } from 'react';
import { errorText, request } from '../../api/client.js';
import { useI18n } from '../../i18n/index.js';
import { can, useStaffMe } from '../../session/staff.js';
import { serverTime } from '../../shell/MaintenanceModal.js';
import { useDocumentTitle } from '../../shell/useDocumentTitle.js';
import { FormError } from '../../shell/FormError.js';

const STAFF_LIST_KEY = ['admin', 'staff'] as const;

/** Staff accounts: the list, and a form to create one for those who may manage staff. */
export default function StaffPage() {
  const { t } = useI18n();
  useDocumentTitle(t('staff.title'));
  const me = useStaffMe();
  const list = useQuery({
    queryKey: STAFF_LIST_KEY,
    queryFn: ({ signal }) => request(api.staffList, { signal }),
    enabled: can(me.data, 'staff.read'),
  });

  if (me.data && !can(me.data, 'staff.read')) {
    return <Alert type="warning" showIcon title={t('admin.forbidden')} />;
  }

  const columns: TableColumnsType<StaffView> = [
    { title: t('staff.col.name'), dataIndex: 'name' },
    { title: t('staff.col.phone'), dataIndex: 'phone' },
    { title: t('staff.col.role'), dataIndex: 'role', render: (role: StaffView['role']) => t(`admin.role.${role}`) },
    { title: t('staff.col.created'), dataIndex: 'created_at', render: (ms: number) => serverTime(ms) },
    {
      title: t('staff.col.status'),
      dataIndex: 'disabled',
      render: (disabled: boolean) =>
        disabled ? <Tag>{t('staff.status.disabled')}</Tag> : <Tag color="green">{t('staff.status.active')}</Tag>,
    },
  ];

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Typography.Title level={1} style={{ fontSize: 22, margin: 0 }}>
        {t('staff.title')}
      </Typography.Title>
      {list.isError && <Alert type="error" showIcon title={t('common.loadFailed', { msg: list.error.message })} />}
      <Card>
        <div data-testid="staff-table">
          <Table<StaffView>
            rowKey="id"
            columns={columns}
            dataSource={list.data?.list ?? []}
            loading={list.isPending}
            pagination={false}
            scroll={{ x: true }}
          />
        </div>
      </Card>
      {can(me.data, 'staff.manage') && <CreateStaffForm />}
    </Space>
  );
}

function CreateStaffForm() {
  const { t, lang } = useI18n();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<CreateStaffBody>();
  const [error, setError] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: (body: CreateStaffBody) => request(api.staffCreate, { body }),
    onSuccess: (staff) => {
      setError(null);
      form.resetFields();
      void message.success(t('staff.create.done', { name: staff.name }));
      void queryClient.invalidateQueries({ queryKey: STAFF_LIST_KEY });
    },
    onError: (e) => setError(errorText(e)),
  });

  return (
    <Card title={<h2 style={{ fontSize: 16, margin: 0 }}>{t('staff.create.title')}</h2>}>
      <Form<CreateStaffBody>
        form={form}
        layout="vertical"
        style={{ maxWidth: 480 }}
        initialValues={{ area_code: DEFAULT_AREA_CODE, role: 'author' }}
        onFinish={(values) => create.mutate(values)}
        onValuesChange={() => setError(null)}
        data-testid="staff-create-form"
      >
        <Form.Item
          name="name"
          label={t('staff.create.name')}
          rules={[{ required: true, whitespace: true, message: t('staff.create.nameRequired') }]}
        >
          <Input maxLength={60} data-testid="staff-create-name" />
        </Form.Item>
        <Form.Item name="area_code" label={t('staff.create.areaCode')}>
          <Select
            options={AREA_CODES.map((a) => ({
              value: a.code,
              label: `+${a.code} ${lang === 'zh-CN' ? a.name_zh : a.name_en}`,
            }))}
          />
        </Form.Item>
        <Form.Item
          name="phone"
          label={t('staff.create.phone')}
          rules={[{ required: true, message: t('login.phoneRequired') }]}
        >
          <Input inputMode="tel" autoComplete="off" data-testid="staff-create-phone" />
        </Form.Item>
        <Form.Item name="role" label={t('staff.create.role')}>
          <Select
            options={STAFF_ROLES.map((r) => ({ value: r, label: t(`admin.role.${r}`) }))}
            data-testid="staff-create-role"
          />
        </Form.Item>
        <Form.Item
          name="password"
          label={t('staff.create.password')}
          rules={[
            {
              required: true,
              min: STAFF_PASSWORD_MIN,
              message: t('staff.create.passwordRule', { n: STAFF_PASSWORD_MIN }),
            },
          ]}
        >
          <Input.Password autoComplete="new-password" data-testid="staff-create-password" />
        </Form.Item>
        <FormError error={error} testId="staff-create-error" />
        <Button type="primary" htmlType="submit" loading={create.isPending} data-testid="staff-create-submit">
          {t('staff.create.submit')}
        </Button>
      </Form>
    </Card>
  );
}
