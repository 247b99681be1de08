import { Alert, Card, Typography } from 'antd';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useI18n } from '../../i18n/index.js';
import { lastLoginPhone } from '../../session/candidate.js';
import { isExamPath, safeRedirect } from '../../session/redirect.js';
import { useDocumentTitle } from '../../shell/useDocumentTitle.js';
import { PhoneCodeForm } from './PhoneCodeForm.js';

/** Candidate login: phone number, SMS code, then back to where the candidate was going. */
export default function LoginPage() {
  const { t } = useI18n();
  useDocumentTitle(t('login.pageTitle'));
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const target = safeRedirect(params.get('redirect'), '/exams');
  // On the way back to an exam the session ended: nothing is lost, and the phone that took the exam is filled in.
  const backToExam = isExamPath(target);

  return (
    <div className="center-card">
      <Card>
        <Typography.Title level={1} style={{ fontSize: 24, marginTop: 0 }}>
          {t('login.title')}
        </Typography.Title>
        {backToExam && (
          <Alert
            type="warning"
            showIcon
            role="status"
            title={t('login.examSessionEnded')}
            description={t('login.examAnswersSafe')}
            style={{ marginBottom: 16 }}
            data-testid="login-exam-notice"
          />
        )}
        <Typography.Paragraph type="secondary">{t('login.hint')}</Typography.Paragraph>
        <PhoneCodeForm
          initial={backToExam ? lastLoginPhone() : null}
          onLoggedIn={() => void navigate(target, { replace: true })}
        />
        <Typography.Paragraph style={{ marginTop: 16, marginBottom: 0, textAlign: 'right' }}>
          <Link to="/admin/login">{t('login.staffLink')}</Link>
        </Typography.Paragraph>
      </Card>
    </div>
  );
}
