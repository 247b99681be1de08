import type { WarningView } from '@examhall/contract';
import { Tag, Typography } from 'antd';
import { useI18n } from '../../../../i18n/index.js';
import { timeOfDay } from '../labels.js';

/** The warnings sent to the candidate, each with whether and when they read it. */
export function Warnings({ warnings }: { warnings: WarningView[] }) {
  const { t } = useI18n();
  return (
    <section aria-labelledby="proctor-warnings-title">
      <Typography.Title level={2} id="proctor-warnings-title" style={{ fontSize: 16 }}>
        {t('console.proctor.warningsSent')}
      </Typography.Title>
      {warnings.length === 0 ? (
        <Typography.Text type="secondary">{t('console.proctor.noWarnings')}</Typography.Text>
      ) : (
        <ul data-testid="proctor-warnings" style={{ paddingInlineStart: 20, margin: 0 }}>
          {warnings.map((w) => (
            <li key={w.id} data-testid={`proctor-warning-${w.id}`}>
              <Typography.Text type="secondary">{timeOfDay(w.time)}</Typography.Text> {w.text}{' '}
              {w.read_at !== null ? (
                <Tag color="green" data-testid="warning-read">
                  {t('console.proctor.warningRead', { time: timeOfDay(w.read_at) })}
                </Tag>
              ) : (
                <Tag data-testid="warning-unread">{t('console.proctor.warningUnread')}</Tag>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
