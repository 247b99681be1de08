import { Alert, Flex, Typography } from 'antd';
import type { ReactNode } from 'react';
import { errorText } from '../../../api/client.js';
import { useI18n } from '../../../i18n/index.js';

/** A console page's heading, with what the page is for under it and its main actions on the right. */
export function PageTitle({ title, description, extra }: { title: string; description?: string; extra?: ReactNode }) {
  return (
    <div>
      <Flex justify="space-between" align="center" wrap gap={12}>
        <Typography.Title level={1} style={{ fontSize: 22, margin: 0 }}>
          {title}
        </Typography.Title>
        {extra}
      </Flex>
      {description && (
        <Typography.Paragraph type="secondary" style={{ margin: '4px 0 0' }}>
          {description}
        </Typography.Paragraph>
      )}
    </div>
  );
}

/** The notice for a role without the page's permission. */
export function Forbidden() {
  const { t } = useI18n();
  return <Alert type="warning" showIcon title={t('admin.forbidden')} />;
}

/** A failed load, in the page's language; nothing when there is no error. */
export function LoadError({ error }: { error: unknown }) {
  const { t } = useI18n();
  if (!error) return null;
  return <Alert type="error" showIcon role="alert" title={t('common.loadFailed', { msg: errorText(error) })} />;
}
