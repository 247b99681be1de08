import type { UseQueryResult } from '@tanstack/react-query';
import { Alert, Button } from 'antd';
import { errorText, isApiError } from '../../api/client.js';
import { useI18n } from '../../i18n/index.js';

/** Why the page has no session (a bad link, a failed load), or that its heartbeat failed. */
export function SessionAlerts({ session, hasInfo }: { session: UseQueryResult<unknown>; hasInfo: boolean }) {
  const { t } = useI18n();
  return (
    <>
      {session.isError && !hasInfo && (
        <Alert
          type="error"
          showIcon
          role="alert"
          data-testid="phone-error"
          title={
            isApiError(session.error) && session.error.code === 'phone_link_invalid'
              ? t('phone.linkInvalid')
              : t('phone.sessionFailed', { msg: errorText(session.error) })
          }
          action={
            <Button size="small" onClick={() => void session.refetch()}>
              {t('common.retry')}
            </Button>
          }
        />
      )}
      {session.isError && hasInfo && (
        <Alert
          type="warning"
          showIcon
          role="alert"
          title={t('phone.heartbeatFailed', { msg: errorText(session.error) })}
          data-testid="phone-heartbeat-error"
        />
      )}
    </>
  );
}
