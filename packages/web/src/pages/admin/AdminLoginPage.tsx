import { LockOutlined, MobileOutlined } from '@ant-design/icons';
import { Button, Card, Flex, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { errorText } from '../../api/client.js';
import { useI18n } from '../../i18n/index.js';
import { safeRedirect } from '../../session/redirect.js';
import { useStaffLogin } from '../../session/staff.js';
import { LanguageSwitch } from '../../shell/LanguageSwitch.js';
import { useDocumentTitle } from '../../shell/useDocumentTitle.js';
import { FormError } from '../../shell/FormError.js';

interface StaffLoginForm {
  phone: string;
  password: string;
}

/** Staff login with phone number and password. */
export default function AdminLoginPage() {
  const { t } = useI18n();
  useDocumentTitle(t('admin.login.pageTitle'));
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const target = safeRedirect(params.get('redirect'), '/admin');
  const login = useStaffLogin();
  const [error, setError] = useState<string | null>(null);

  const onFinish = (values: StaffLoginForm) => {
    setError(null);
    login.mutate(values, {
      onSuccess: () => void navigate(target.startsWith('/admin') ? target : '/admin', { replace: true }),
      onError: (e) => setError(errorText(e)),
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
