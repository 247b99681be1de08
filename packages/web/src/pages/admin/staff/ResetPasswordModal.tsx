import { api, ResetStaffPasswordBody, STAFF_PASSWORD_MIN, type StaffView } from '@examhall/contract';
import { useMutation } from '@tanstack/react-query';
import { App, Input, Modal, Typography } from 'antd';
import { Form } from '../../../shell/Form.js';
import { useState } from 'react';
import { errorText, request } from '../../../api/client.js';
import { useI18n } from '../../../i18n/index.js';
import { FormError } from '../../../shell/FormError.js';
import { zodRule } from '../shared/zodRule.js';

/** Sets a new password for an account; its sessions end, so the person logs in again with it. */
export function ResetPasswordModal({ staff, onClose }: { staff: StaffView | null; onClose: () => void }) {
  const { t } = useI18n();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ password: string; confirm: string }>();
  const [error, setError] = useState<string | null>(null);
  const reset = useMutation({
    mutationFn: (password: string) => request(api.staffResetPassword, { body: { id: staff?.id ?? 0, password } }),
    onSuccess: () => {
      void message.success(t('console.staff.passwordReset', { name: staff?.name ?? '' }));
      onClose();
    },
    onError: (e) => setError(errorText(e)),
  });
  return (
    <Modal
      open={staff !== null}
      title={staff ? t('console.staff.resetTitle', { name: staff.name }) : ''}
      okText={t('console.staff.resetPassword')}
      cancelText={t('console.common.cancel')}
      okButtonProps={{ loading: reset.isPending, 'data-testid': 'staff-reset-submit' }}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{t('console.staff.resetBody')}</Typography.Paragraph>
      <Form
        form={form}
        layout="vertical"
        preserve={false}
        onFinish={(v) => reset.mutate(v.password)}
        onValuesChange={() => setError(null)}
      >
        <Form.Item
          name="password"
          label={t('console.staff.newPassword')}
          rules={[
            zodRule(ResetStaffPasswordBody.shape.password, t('staff.create.passwordRule', { n: STAFF_PASSWORD_MIN })),
          ]}
        >
          <Input.Password autoComplete="new-password" autoFocus data-testid="staff-reset-password" />
        </Form.Item>
        <Form.Item
          name="confirm"
          label={t('console.staff.confirmPassword')}
          dependencies={['password']}
          rules={[
            ({ getFieldValue }) => ({
              validator: (_, value) =>
                value === getFieldValue('password')
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('console.staff.passwordMismatch'))),
            }),
          ]}
        >
          <Input.Password autoComplete="new-password" data-testid="staff-reset-confirm" />
        </Form.Item>
        <FormError error={error} testId="staff-reset-error" />
        {/* Enter in either field submits. */}
        <button type="submit" hidden />
      </Form>
    </Modal>
  );
}
