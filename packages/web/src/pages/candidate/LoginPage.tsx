import { Card, Typography } from 'antd';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useI18n } from '../../i18n/index.js';
import { safeRedirect } from '../../session/redirect.js';
import { useDocumentTitle } from '../../shell/useDocumentTitle.js';
import { PhoneCodeForm } from './PhoneCodeForm.js';

/** Candidate login: phone number, SMS code, then back to where the candidate was going. */
export default function LoginPage() {
  const { t } = useI18n();
  useDocumentTitle(t('login.pageTitle'));
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const target = safeRedirect(params.get('redirect'), '/exams');

  return (
    <div className="center-card">
      <Card>
        <Typography.Title level={1} style={{ fontSize: 24, marginTop: 0 }}>
          {t('login.title')}
        </Typography.Title>
        <Typography.Paragraph type="secondary">{t('login.hint')}</Typography.Paragraph>
        <PhoneCodeForm onLoggedIn={() => void navigate(target, { replace: true })} />
        <Typography.Paragraph style={{ marginTop: 16, marginBottom: 0, textAlign: 'right' }}>
          <Link to="/admin/login">{t('login.staffLink')}</Link>
        </Typography.Paragraph>
      </Card>
    </div>
  );
}
