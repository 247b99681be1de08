import { Alert, Card, Typography } from 'antd';
import { useI18n } from '../../../i18n/index.js';
import { AntdProviders } from '../../../shell/AntdScope.js';
import { lastLoginPhone } from '../../../session/candidate.js';
import { PhoneCodeForm } from '../../candidate/PhoneCodeForm.js';

/**
 * The notice in place of the lost session, above the questions: nothing is lost, the exam can go on, and the
 * candidate logs in again here with the phone filled in. Loaded only when a session is lost, with antd's context
 * (the exam page around it has none).
 */
export default function SessionExpired({ open, onRenewed }: { open: boolean; onRenewed: () => void }) {
  if (!open) return null;
  return (
    <AntdProviders inline>
      <SessionNotice onRenewed={onRenewed} />
    </AntdProviders>
  );
}

function SessionNotice({ onRenewed }: { onRenewed: () => void }) {
  const { t } = useI18n();
  return (
    <Card
      className="session-expired"
      role="region"
      aria-labelledby="session-expired-title"
      data-testid="session-expired"
      style={{ maxWidth: 1168, margin: '8px auto 0' }}
    >
      <Typography.Title level={2} id="session-expired-title" style={{ fontSize: 16, marginTop: 0 }}>
        {t('exam.sessionExpired.title')}
      </Typography.Title>
      <Alert type="warning" showIcon role="alert" title={t('exam.sessionExpired.body')} style={{ marginBottom: 12 }} />
      <Typography.Paragraph type="secondary">{t('exam.sessionExpired.hint')}</Typography.Paragraph>
      <div style={{ maxWidth: 420 }}>
        <PhoneCodeForm initial={lastLoginPhone()} onLoggedIn={onRenewed} />
      </div>
    </Card>
  );
}
