/** Screen sharing: the whole screen only. */
import { Alert } from 'antd';
import { useI18n } from '../../i18n/index.js';
import { openScreen } from '../devices.js';
import { useDevice, useRecordCheck, type StepProps } from './hooks.js';
import { DeviceStep, StreamPreview } from './widgets.js';

/** Screen sharing: the whole screen only. */
export function ScreenStep(props: StepProps) {
  const { t } = useI18n();
  const device = useDevice('screen', openScreen);
  const record = useRecordCheck(props, 'screenSharing');
  return (
    <DeviceStep
      props={props}
      step="screenSharing"
      device={device}
      record={record}
      intro={t('proctor.screen.intro')}
      openLabel={t('proctor.screen.open')}
    >
      {(stream) => (
        <>
          <Alert
            type="success"
            showIcon
            role="status"
            title={t('proctor.screen.sharing')}
            style={{ marginBottom: 12 }}
          />
          <StreamPreview stream={stream} mirror={false} label={t('proctor.screen.preview')} />
        </>
      )}
    </DeviceStep>
  );
}
