import { Space } from 'antd';
import { useI18n } from '../../../i18n/index.js';
import { useDocumentTitle } from '../../../shell/useDocumentTitle.js';
import { Forbidden, PageTitle } from '../shared/PageTitle.js';
import { ApiTokensPanel } from './ApiTokensPanel.js';
import { DeliveriesPanel } from './DeliveriesPanel.js';
import { WebhooksPanel } from './WebhooksPanel.js';
import { useMayIntegrate } from './queries.js';

/** Integrations (admins): webhook addresses, their delivery log, and API tokens for other systems. */
export default function IntegrationsPage() {
  const { t } = useI18n();
  useDocumentTitle(t('admin.menu.integrations'));
  const { known, allowed } = useMayIntegrate();
  if (known && !allowed) return <Forbidden />;
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }} data-testid="integrations-page">
      <PageTitle title={t('admin.menu.integrations')} description={t('admin.area.integrations')} />
      <WebhooksPanel />
      <DeliveriesPanel />
      <ApiTokensPanel />
    </Space>
  );
}
