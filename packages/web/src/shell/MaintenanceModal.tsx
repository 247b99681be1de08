import { SERVER_UTC_OFFSET_MINUTES, type SiteConfigData } from '@examhall/contract';
import { Modal, Typography } from 'antd';
import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc';
import { useI18n } from '../i18n/index.js';

dayjs.extend(utc);

/** A time as the server's clock shows it (UTC+8), which is how candidates read exam times. */
export function serverTime(ms: number): string {
  return dayjs(ms).utcOffset(SERVER_UTC_OFFSET_MINUTES).format('YYYY-MM-DD HH:mm');
}

/** The non-closable maintenance notice, open while the server says the window is active. */
export function MaintenanceModal({ config }: { config: SiteConfigData | undefined }) {
  const { t } = useI18n();
  const window = config?.maintenance;
  const open = window?.active === true;
  return (
    <Modal
      open={open}
      title={t('maintenance.title')}
      closable={false}
      mask={{ closable: false }}
      keyboard={false}
      footer={null}
      centered
      data-testid="maintenance-modal"
    >
      {window && (
        <>
          <Typography.Paragraph>
            {t('maintenance.body', { from: serverTime(window.from), to: serverTime(window.to) })}
          </Typography.Paragraph>
          {config.support_phone && (
            <Typography.Paragraph>{t('maintenance.support', { phone: config.support_phone })}</Typography.Paragraph>
          )}
        </>
      )}
    </Modal>
  );
}
