/** The staff member's own second factor: turn TOTP on (QR code, key, a code to confirm, recovery codes once) or off. */
import { api, type StaffView, type TotpEnrolData } from '@examhall/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, App as AntApp, Button, Flex, Input, Typography } from 'antd';
import { Form } from '../../../shell/Form.js';
import { useState } from 'react';
import { errorText, request } from '../../../api/client.js';
import { useI18n } from '../../../i18n/index.js';
import { STAFF_ME_KEY } from '../../../session/staff.js';
import { FormError } from '../../../shell/FormError.js';

/** The enrolment in progress, or the recovery codes to show once. */
type Step = { kind: 'idle' } | { kind: 'scan'; enrol: TotpEnrolData } | { kind: 'codes'; codes: string[] };

/** Turns the account's second factor on or off; `staff` is the logged-in account. */
export function TotpPanel({ staff }: { staff: StaffView }) {
  const { t } = useI18n();
  const { message } = AntApp.useApp();
  const queryClient = useQueryClient();
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const [error, setError] = useState<string | null>(null);
  const refreshMe = () => queryClient.invalidateQueries({ queryKey: STAFF_ME_KEY });

  const enrol = useMutation({
    mutationFn: () => request(api.staffTotpEnrol),
    onSuccess: (enrolData) => setStep({ kind: 'scan', enrol: enrolData }),
    onError: (e) => setError(errorText(e)),
  });
  const confirm = useMutation({
    mutationFn: (code: string) => request(api.staffTotpConfirm, { body: { code } }),
    onSuccess: (data) => setStep({ kind: 'codes', codes: data.recovery_codes }),
    onError: (e) => setError(errorText(e)),
  });
  const disable = useMutation({
    mutationFn: (password: string) => request(api.staffTotpDisable, { body: { password } }),
    onSuccess: async () => {
      void message.success(t('admin.totp.disabled'));
      await refreshMe();
    },
    onError: (e) => setError(errorText(e)),
  });

  if (step.kind === 'codes') {
    return (
      <section aria-labelledby="totp-title" data-testid="totp-panel">
        <Typography.Title level={2} id="totp-title" style={{ fontSize: 18 }}>
          {t('admin.totp.recoveryTitle')}
        </Typography.Title>
        <Alert type="warning" showIcon title={t('admin.totp.recoveryHint')} style={{ marginBottom: 12 }} />
        <ul className="recovery-codes" data-testid="totp-recovery-codes">
          {step.codes.map((c) => (
            <li key={c}>
              <Typography.Text code copyable>
                {c}
              </Typography.Text>
            </li>
          ))}
        </ul>
        <Button
          type="primary"
          onClick={() => {
            setStep({ kind: 'idle' });
            void refreshMe();
          }}
          data-testid="totp-done"
        >
          {t('admin.totp.done')}
        </Button>
      </section>
    );
  }

  return (
    <section aria-labelledby="totp-title" data-testid="totp-panel">
      <Typography.Title level={2} id="totp-title" style={{ fontSize: 18 }}>
        {t('admin.totp.title')}
      </Typography.Title>
      {staff.totp_enrolment_required && (
        <Alert type="info" showIcon title={t('admin.totp.requiredNotice')} style={{ marginBottom: 12 }} />
      )}
      {staff.totp_enabled ? (
        <>
          <Typography.Paragraph data-testid="totp-status-on">{t('admin.totp.on')}</Typography.Paragraph>
          <Form<{ password: string }>
            layout="vertical"
            requiredMark={false}
            onFinish={(v) => {
              setError(null);
              disable.mutate(v.password);
            }}
          >
            <Form.Item
              name="password"
              label={t('admin.login.password')}
              extra={t('admin.totp.disableHint')}
              rules={[{ required: true, message: t('admin.login.passwordRequired') }]}
            >
              <Input.Password autoComplete="current-password" data-testid="totp-disable-password" />
            </Form.Item>
            <FormError error={error} testId="totp-error" />
            <Button danger htmlType="submit" loading={disable.isPending} data-testid="totp-disable">
              {t('admin.totp.disable')}
            </Button>
          </Form>
        </>
      ) : step.kind === 'scan' ? (
        <Flex gap={24} wrap>
          <img
            src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(step.enrol.qr_svg)}`}
            alt={t('admin.totp.qrAlt')}
            width={200}
            height={200}
            data-testid="totp-qr"
          />
          <div style={{ minWidth: 260, flex: 1 }}>
            <Typography.Paragraph>{t('admin.totp.scan')}</Typography.Paragraph>
            <Typography.Paragraph>
              {t('admin.totp.secret')}:{' '}
              <Typography.Text code copyable data-testid="totp-secret">
                {step.enrol.secret}
              </Typography.Text>
            </Typography.Paragraph>
            <Form<{ code: string }>
              layout="vertical"
              requiredMark={false}
              onFinish={(v) => {
                setError(null);
                confirm.mutate(v.code);
              }}
            >
              <Form.Item
                name="code"
                label={t('admin.totp.code')}
                rules={[{ required: true, message: t('admin.login.totpRequired') }]}
              >
                <Input inputMode="numeric" autoComplete="one-time-code" maxLength={7} data-testid="totp-code" />
              </Form.Item>
              <FormError error={error} testId="totp-error" />
              <Button type="primary" htmlType="submit" loading={confirm.isPending} data-testid="totp-confirm">
                {t('admin.totp.confirm')}
              </Button>
            </Form>
          </div>
        </Flex>
      ) : (
        <>
          <Typography.Paragraph data-testid="totp-status-off">{t('admin.totp.off')}</Typography.Paragraph>
          <FormError error={error} testId="totp-error" />
          <Button
            type="primary"
            loading={enrol.isPending}
            onClick={() => {
              setError(null);
              enrol.mutate();
            }}
            data-testid="totp-start"
          >
            {t('admin.totp.start')}
          </Button>
        </>
      )}
    </section>
  );
}
