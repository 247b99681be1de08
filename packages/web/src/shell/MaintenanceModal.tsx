import type { SiteConfigData } from '@examhall/contract';
import { useI18n } from '../i18n/index.js';
import { Dialog } from '../ui/Dialog.js';
import { Paragraph } from '../ui/Typography.js';
import { serverTime } from './serverTime.js';

/** The maintenance notice, open while the server says the window is active; it cannot be closed. */
export function MaintenanceModal({ config }: { config: SiteConfigData | undefined }) {
  const { t } = useI18n();
  const window = config?.maintenance;
  return (
    <Dialog open={window?.active === true} title={t('maintenance.title')} data-testid="maintenance-modal">
      {window && (
        <>
          <Paragraph>{t('maintenance.body', { from: serverTime(window.from), to: serverTime(window.to) })}</Paragraph>
          {config.support_phone && <Paragraph>{t('maintenance.support', { phone: config.support_phone })}</Paragraph>}
        </>
      )}
    </Dialog>
  );
}
