/** Microphone: the step shows a live level meter. */
import { Progress, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useI18n } from '../../i18n/index.js';
import { meterLevel, openMicrophone } from '../devices.js';
import { useDevice, useRecordCheck, type StepProps } from './hooks.js';
import { DeviceStep } from './widgets.js';

/** Microphone: a live level meter. */
export function MicrophoneStep(props: StepProps) {
  const { t } = useI18n();
  const device = useDevice('microphone', () => openMicrophone());
  const record = useRecordCheck(props, 'microphone');
  const [level, setLevel] = useState(0);
  const [heard, setHeard] = useState(false);

  useEffect(() => {
    if (!device.stream) return;
    let meter: ReturnType<typeof meterLevel>;
    try {
      meter = meterLevel(device.stream);
    } catch (e) {
      console.warn('[proctor] microphone level unavailable', e);
      return;
    }
    let frame = 0;
    let last = 0;
    const tick = (now: number) => {
      // About 10 updates a second is enough for the eye and keeps React idle.
      if (now - last > 100) {
        last = now;
        const v = meter.level();
        setLevel(v);
        if (v > 0.05) setHeard(true);
      }
      frame = requestAnimationFrame(tick);
    };
    frame = requestAnimationFrame(tick);
    return () => {
      cancelAnimationFrame(frame);
      meter.close();
    };
  }, [device.stream]);

  return (
    <DeviceStep
      props={props}
      step="microphone"
      device={device}
      record={record}
      intro={t('proctor.microphone.intro')}
      openLabel={t('proctor.microphone.open')}
    >
      {() => (
        <div>
          <Typography.Text id="mic-level-label">{t('proctor.microphone.level')}</Typography.Text>
          <Progress
            percent={Math.round(level * 100)}
            showInfo={false}
            aria-labelledby="mic-level-label"
            data-testid="mic-level"
            data-level={level.toFixed(3)}
            strokeColor={level > 0.05 ? '#52c41a' : undefined}
          />
          <Typography.Paragraph type={heard ? 'success' : 'secondary'} data-testid="mic-heard" data-heard={heard}>
            {heard ? t('proctor.microphone.heard') : t('proctor.microphone.speak')}
          </Typography.Paragraph>
        </div>
      )}
    </DeviceStep>
  );
}
