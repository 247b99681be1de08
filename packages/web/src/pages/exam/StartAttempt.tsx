import type { UseMutationResult } from '@tanstack/react-query';
import { Alert, Button } from 'antd';
import { errorText } from '../../api/client.js';
import { useI18n } from '../../i18n/index.js';

/** The large button that starts the attempt (or moves it on), with the reason shown when that failed. */
export function StartAttempt({
  start,
  label,
  testId,
  autoFocus,
}: {
  start: Pick<UseMutationResult<unknown, Error, void>, 'isError' | 'error' | 'isPending' | 'mutate'>;
  label: string;
  testId: string;
  autoFocus?: boolean;
}) {
  const { t } = useI18n();
  return (
    <>
      {start.isError && (
        <Alert
          type="error"
          showIcon
          role="alert"
          title={t('entry.startFailed', { msg: errorText(start.error) })}
          style={{ marginBottom: 16 }}
        />
      )}
      <Button
        type="primary"
        size="large"
        loading={start.isPending}
        onClick={() => start.mutate()}
        data-testid={testId}
        autoFocus={autoFocus}
      >
        {label}
      </Button>
    </>
  );
}
