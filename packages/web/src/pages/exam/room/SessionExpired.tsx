import { Alert, Card, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { keepSessionHere } from '../../../api/client.js';
import { useI18n } from '../../../i18n/index.js';
import { lastLoginPhone } from '../../../session/candidate.js';
import { PhoneCodeForm } from '../../candidate/PhoneCodeForm.js';

/**
 * While the exam page is open, a session that expires or is revoked keeps the candidate where they are: every
 * change waits in this browser (the outbox and the offline pictures keep it), and `expired` turns true until
 * they log in again.
 */
export function useSessionKeeper() {
  const [expired, setExpired] = useState(false);
  useEffect(() => keepSessionHere(() => setExpired(true)), []);
  return { expired, renewed: () => setExpired(false) };
}

/**
 * The notice in place of the lost session, above the questions: nothing is lost, the exam can go on, and the
 * candidate logs in again here with the phone filled in.
 */
export function SessionExpired({ open, onRenewed }: { open: boolean; onRenewed: () => void }) {
  const { t } = useI18n();
  if (!open) return null;
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
