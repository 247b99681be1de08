import { Link } from 'react-router';
import { errorText, isApiError } from '../../api/client.js';
import { useI18n } from '../../i18n/index.js';
import { useUserInfo } from '../../session/candidate.js';
import { Alert } from '../../ui/Alert.js';
import { Paragraph } from '../../ui/Typography.js';

/**
 * Why an exam page cannot open: an exam that does not exist or was not given to this account says so, with
 * the account's phone and the way back; any other failure is shown as it is.
 */
export function ExamLoadError({ error }: { error: unknown }) {
  const { t } = useI18n();
  const user = useUserInfo();
  if (!(isApiError(error) && error.code === 'exam_detail_missing')) {
    return <Alert type="error" title={errorText(error)} data-testid="exam-error" />;
  }
  return (
    <Alert
      type="warning"
      data-testid="exam-missing"
      title={t('entry.missing.title')}
      description={
        <>
          <Paragraph style={{ marginBottom: 8 }}>
            {t('entry.missing.body', { phone: user.data?.phone ?? '' })}
          </Paragraph>
          <Link to="/exams">{t('entry.back')}</Link>
        </>
      }
    />
  );
}
