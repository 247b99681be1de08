import { KeyOutlined, LockOutlined, MobileOutlined, SafetyOutlined } from '@ant-design/icons';
import { Button, Card, Flex, Input, Typography } from 'antd';
import { Form } from '../../shell/Form.js';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { errorText, isApiError } from '../../api/client.js';
import { useI18n } from '../../i18n/index.js';
// The console's texts load with the console.
import '../../i18n/console.js';
import { safeRedirect } from '../../session/redirect.js';
import { useStaffLogin } from '../../session/staff.js';
import { LanguageSwitch } from '../../shell/LanguageSwitch.js';
import { useDocumentTitle } from '../../shell/useDocumentTitle.js';
import { FormError } from '../../shell/FormError.js';

interface StaffLoginForm {
  phone: string;
  password: string;
  totp_code?: string;
  recovery_code?: string;
}

/** Which second factor the form asks for: none until the server says the account has one. */
type SecondFactor = 'none' | 'totp' | 'recovery';

/** Staff login with phone number and password, then the authenticator code (or a recovery code) when the account has one. */
export default function AdminLoginPage() {
  const { t } = useI18n();
  useDocumentTitle(t('admin.login.pageTitle'));
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const target = safeRedirect(params.get('redirect'), '/admin');
  const login = useStaffLogin();
  const [error, setError] = useState<string | null>(null);
  const [factor, setFactor] = useState<SecondFactor>('none');

  const onFinish = (values: StaffLoginForm) => {
    setError(null);
    const body = {
      phone: values.phone,
      password: values.password,
      ...(factor === 'totp' && values.totp_code ? { totp_code: values.totp_code } : {}),
      ...(factor === 'recovery' && values.recovery_code ? { recovery_code: values.recovery_code } : {}),
    };
    login.mutate(body, {
      onSuccess: () => void navigate(target.startsWith('/admin') ? target : '/admin', { replace: true }),
      onError: (e) => {
        // The password was right and the account has a second factor: ask for it, no error to show yet.
        if (isApiError(e) && e.code === 'totp_required' && factor === 'none') setFactor('totp');
        else setError(errorText(e));
      },
    });
  };

  return (
    <main className="center-card">
      <Flex justify="space-between" align="center" style={{ marginBottom: 12 }}>
        <Typography.Text strong className="brand">
          {t('app.name')}
        </Typography.Text>
        <LanguageSwitch />
      </Flex>
      <Card>
        <Typography.Title level={1} style={{ fontSize: 22, marginTop: 0 }}>
          {t('admin.login.title')}
        </Typography.Title>
        <Form<StaffLoginForm>
          layout="vertical"
          requiredMark={false}
          onFinish={onFinish}
          onValuesChange={() => setError(null)}
          data-testid="staff-login-form"
        >
          <Form.Item
            name="phone"
            label={t('admin.login.phone')}
            rules={[{ required: true, message: t('login.phoneRequired') }]}
          >
            <Input
              prefix={<MobileOutlined aria-hidden />}
              inputMode="tel"
              autoComplete="username"
              data-testid="staff-phone"
            />
          </Form.Item>
          <Form.Item
            name="password"
            label={t('admin.login.password')}
            rules={[{ required: true, message: t('admin.login.passwordRequired') }]}
          >
            <Input.Password
              prefix={<LockOutlined aria-hidden />}
              autoComplete="current-password"
              data-testid="staff-password"
            />
          </Form.Item>
          {factor === 'totp' && (
            <Form.Item
              name="totp_code"
              label={t('admin.login.totp')}
              extra={t('admin.login.totpHint')}
              rules={[{ required: true, message: t('admin.login.totpRequired') }]}
            >
              <Input
                prefix={<SafetyOutlined aria-hidden />}
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={7}
                autoFocus
                data-testid="staff-totp"
              />
            </Form.Item>
          )}
          {factor === 'recovery' && (
            <Form.Item
              name="recovery_code"
              label={t('admin.login.recovery')}
              rules={[{ required: true, message: t('admin.login.recoveryRequired') }]}
            >
              <Input prefix={<KeyOutlined aria-hidden />} autoComplete="off" autoFocus data-testid="staff-recovery" />
            </Form.Item>
          )}
          {factor !== 'none' && (
            <Button
              type="link"
              style={{ paddingInline: 0, marginBottom: 12 }}
              onClick={() => setFactor(factor === 'totp' ? 'recovery' : 'totp')}
              data-testid="staff-factor-switch"
            >
              {factor === 'totp' ? t('admin.login.useRecovery') : t('admin.login.useTotp')}
            </Button>
          )}
          <FormError error={error} testId="staff-login-error" />
          <Button type="primary" htmlType="submit" block loading={login.isPending} data-testid="staff-login-submit">
            {t('admin.login.submit')}
          </Button>
        </Form>
        <Typography.Paragraph style={{ marginTop: 16, marginBottom: 0, textAlign: 'right' }}>
          <Link to="/login">{t('admin.login.candidateLink')}</Link>
        </Typography.Paragraph>
      </Card>
    </main>
  );
}
