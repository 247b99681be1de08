import {
  api,
  CreateStaffBody,
  DEFAULT_AREA_CODE,
  STAFF_PASSWORD_MIN,
  STAFF_ROLES,
  type StaffRole,
  enumOptions,
  ROLE_TEXTS,
} from '@examhall/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Input, Select } from 'antd';
import { Form } from '../../../shell/Form.js';
import { useState } from 'react';
import { errorText, request } from '../../../api/client.js';
import { useI18n } from '../../../i18n/index.js';
import { FormError } from '../../../shell/FormError.js';
import { zodRule } from '../shared/zodRule.js';
import { TeamSelect } from './TeamSelect.js';
import { STAFF_LIST_KEY, TEAMS_KEY } from './queries.js';
import { AreaCodeSelect } from '../shared/AreaCodeSelect.js';

/** The create form's fields. */
interface CreateForm {
  name: string;
  area_code: string;
  phone: string;
  role: StaffRole;
  team_id: number | null;
  password: string;
}

/** Creates a staff account with its role and team. */
export function CreateStaffForm() {
  const { t, lang } = useI18n();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<CreateForm>();
  const [error, setError] = useState<string | null>(null);
  const role = Form.useWatch('role', form);
  const team = Form.useWatch('team_id', form);
  const create = useMutation({
    mutationFn: (body: CreateStaffBody) => request(api.staffCreate, { body }),
    onSuccess: (staff) => {
      setError(null);
      form.resetFields();
      void message.success(t('staff.create.done', { name: staff.name }));
      void queryClient.invalidateQueries({ queryKey: STAFF_LIST_KEY });
      void queryClient.invalidateQueries({ queryKey: TEAMS_KEY });
    },
    onError: (e) => setError(errorText(e)),
  });
  const fields = CreateStaffBody.shape;

  return (
    <Card title={<h2 style={{ fontSize: 16, margin: 0 }}>{t('staff.create.title')}</h2>}>
      <Form<CreateForm>
        form={form}
        layout="vertical"
        style={{ maxWidth: 480 }}
        initialValues={{ area_code: DEFAULT_AREA_CODE, role: 'author', team_id: null }}
        onFinish={(values) => create.mutate({ ...values, name: values.name.trim() })}
        onValuesChange={() => setError(null)}
        data-testid="staff-create-form"
      >
        <Form.Item
          name="name"
          required
          label={t('staff.create.name')}
          rules={[zodRule(fields.name, t('staff.create.nameRequired'))]}
        >
          <Input maxLength={60} data-testid="staff-create-name" />
        </Form.Item>
        <Form.Item name="area_code" label={t('staff.create.areaCode')}>
          <AreaCodeSelect />
        </Form.Item>
        <Form.Item
          name="phone"
          label={t('staff.create.phone')}
          rules={[
            { required: true, message: t('login.phoneRequired') },
            zodRule(fields.phone, t('login.phoneInvalid')),
          ]}
        >
          <Input inputMode="tel" autoComplete="off" data-testid="staff-create-phone" />
        </Form.Item>
        <Form.Item name="role" label={t('staff.create.role')} extra={role ? t(`console.staff.roleHint.${role}`) : null}>
          <Select options={enumOptions(ROLE_TEXTS, STAFF_ROLES, lang)} data-testid="staff-create-role" />
        </Form.Item>
        <Form.Item name="team_id" label={t('console.staff.col.team')}>
          <TeamSelect testId="staff-create-team" />
        </Form.Item>
        {role === 'author' && team === null && (
          <Alert type="warning" showIcon title={t('console.staff.authorNoTeam')} style={{ marginBottom: 16 }} />
        )}
        <Form.Item
          name="password"
          required
          label={t('staff.create.password')}
          rules={[zodRule(fields.password, t('staff.create.passwordRule', { n: STAFF_PASSWORD_MIN }))]}
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
