import {
  STAFF_ROLES,
  UpdateStaffBody,
  type StaffRole,
  type StaffView,
  enumOptions,
  ROLE_TEXTS,
} from '@examhall/contract';
import { Alert, App, Button, Drawer, Input, Select, Space } from 'antd';
import { Form } from '../../../shell/Form.js';
import { useEffect, useState } from 'react';
import { errorText } from '../../../api/client.js';
import { useI18n } from '../../../i18n/index.js';
import { useStaffMe } from '../../../session/staff.js';
import { FormError } from '../../../shell/FormError.js';
import { zodRule } from '../shared/zodRule.js';
import { SessionsPanel } from '../account/SessionsPanel.js';
import { TeamSelect } from './TeamSelect.js';
import { useUpdateStaff } from './queries.js';

/** The fields the drawer edits. */
interface StaffForm {
  name: string;
  role: StaffRole;
  team_id: number | null;
}

/** Only what changed, so the audit log shows exactly what was done. */
export function staffChanges(before: StaffView, values: StaffForm): UpdateStaffBody {
  const body: UpdateStaffBody = { id: before.id };
  if (values.name.trim() !== before.name) body.name = values.name.trim();
  if (values.role !== before.role) body.role = values.role;
  if (values.team_id !== before.team_id) body.team_id = values.team_id;
  return body;
}

/** Edits one account's name, role and team. */
export function EditStaffDrawer({ staff, onClose }: { staff: StaffView | null; onClose: () => void }) {
  const { t, lang } = useI18n();
  const { message } = App.useApp();
  const me = useStaffMe();
  const [form] = Form.useForm<StaffForm>();
  const [error, setError] = useState<string | null>(null);
  const update = useUpdateStaff();
  const role = Form.useWatch('role', form);
  const team = Form.useWatch('team_id', form);

  useEffect(() => {
    if (staff) {
      form.setFieldsValue({ name: staff.name, role: staff.role, team_id: staff.team_id });
      setError(null);
    }
  }, [staff, form]);

  const save = (values: StaffForm) => {
    if (!staff) return;
    const body = staffChanges(staff, values);
    if (Object.keys(body).length === 1) {
      onClose();
      return;
    }
    update.mutate(body, {
      onSuccess: (saved) => {
        void message.success(t('console.staff.saved', { name: saved.name }));
        onClose();
      },
      onError: (e) => setError(errorText(e)),
    });
  };

  return (
    <Drawer
      open={staff !== null}
      onClose={onClose}
      title={staff ? t('console.staff.editTitle', { name: staff.name }) : ''}
      size={480}
      destroyOnHidden
      extra={
        <Space>
          <Button onClick={onClose}>{t('console.common.cancel')}</Button>
          <Button type="primary" loading={update.isPending} onClick={() => form.submit()} data-testid="staff-edit-save">
            {t('console.common.save')}
          </Button>
        </Space>
      }
    >
      <Form<StaffForm>
        form={form}
        layout="vertical"
        onFinish={save}
        onValuesChange={() => setError(null)}
        data-testid="staff-edit-form"
      >
        <Form.Item
          name="name"
          label={t('staff.create.name')}
          rules={[zodRule(UpdateStaffBody.shape.name.unwrap(), t('staff.create.nameRequired'))]}
        >
          <Input maxLength={60} data-testid="staff-edit-name" />
        </Form.Item>
        <Form.Item name="role" label={t('staff.create.role')} extra={role ? t(`console.staff.roleHint.${role}`) : null}>
          <Select
            disabled={staff?.id === me.data?.id}
            options={enumOptions(ROLE_TEXTS, STAFF_ROLES, lang)}
            data-testid="staff-edit-role"
          />
        </Form.Item>
        <Form.Item name="team_id" label={t('console.staff.col.team')}>
          <TeamSelect testId="staff-edit-team" />
        </Form.Item>
        {role === 'author' && team === null && (
          <Alert type="warning" showIcon title={t('console.staff.authorNoTeam')} style={{ marginBottom: 16 }} />
        )}
        {staff?.id === me.data?.id && (
          <Alert type="info" showIcon title={t('console.staff.ownRole')} style={{ marginBottom: 16 }} />
        )}
        <FormError error={error} testId="staff-edit-error" />
      </Form>
      {staff && staff.id !== me.data?.id && <SessionsPanel staffId={staff.id} />}
    </Drawer>
  );
}
