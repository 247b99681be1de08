import { KeyOutlined, LockOutlined, MobileOutlined, SafetyOutlined } from '@ant-design/icons';
import { api, ERROR_CODES, type ErrorCode } from '@examhall/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Divider, Flex, Input, Space, Typography } from 'antd';
import { Form } from '../../shell/Form.js';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { errorText, isApiError, request } from '../../api/client.js';
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
  // Single sign-on offered beside the password form; a refused one comes back here naming its code.
  const sso = useQuery({ queryKey: ['sso-options'], queryFn: ({ signal }) => request(api.ssoOptions, { signal }) });
  const ssoError = params.get('sso_error');
  const ssoErrorCode: ErrorCode | null =
    ssoError === null
      ? null
      : (ERROR_CODES as readonly string[]).includes(ssoError)
        ? (ssoError as ErrorCode)
        : 'internal_error';
  const providers = [sso.data?.oidc, sso.data?.saml].filter((p) => p !== null && p !== undefined);

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
        {ssoErrorCode && (
          <Alert
            type="error"
            showIcon
            role="alert"
            title={t(`error.${ssoErrorCode}`)}
            style={{ marginBottom: 16 }}
            data-testid="sso-error"
          />
        )}
        {providers.length > 0 && (
          <>
            <Space orientation="vertical" style={{ width: '100%' }}>
              {providers.map((p) => (
                <Button
                  key={p.start_path}
                  block
                  type={sso.data?.required ? 'primary' : 'default'}
                  href={`${p.start_path}?redirect=${encodeURIComponent(target)}`}
                  data-testid="staff-sso"
                >
                  {t('admin.login.sso', { name: p.name })}
                </Button>
              ))}
            </Space>
            {sso.data?.required && (
              <Typography.Paragraph type="secondary" style={{ marginTop: 12 }}>
                {t('admin.login.ssoRequired')}
              </Typography.Paragraph>
            )}
            <Divider plain>{t('admin.login.or')}</Divider>
          </>
        )}
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
