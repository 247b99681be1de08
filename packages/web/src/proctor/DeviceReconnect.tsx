import { type MonitorStepKey, monitorCalls } from '@examhall/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { request } from '../api/client.js';
import { queryKey } from '../api/queryKeys.js';
import { useI18n, type MessageKey } from '../i18n/index.js';
import { Alert } from '../ui/Alert.js';
import { Button } from '../ui/Button.js';
import { Space } from '../ui/Flex.js';
import { STEP_IDS } from './checks.js';
import { openCamera, openMicrophone, openScreen, toDeviceError, type DeviceError } from './devices.js';
import { DeviceProblem } from './steps/widgets.js';
import { isLive, setStream, useStreams, type ProctorStreams } from './streams.js';

/** The devices the exam keeps open, with their check step and how to open them again. */
const DEVICES: {
  kind: keyof ProctorStreams;
  step: MonitorStepKey;
  label: MessageKey;
  open: () => Promise<MediaStream>;
}[] = [
  { kind: 'camera', step: 'camera', label: 'proctor.reconnect.camera', open: () => openCamera('user') },
  { kind: 'microphone', step: 'microphone', label: 'proctor.reconnect.microphone', open: () => openMicrophone() },
  { kind: 'screen', step: 'screenSharing', label: 'proctor.reconnect.screen', open: openScreen },
];

/**
 * For the exam page: a device whose check was passed but whose stream is gone (the page was
 * reloaded, the device was unplugged, sharing was stopped) is offered to be turned on again, so
 * the captures resume without going back to the checks.
 */
export function DeviceReconnect({ examId }: { examId: number }) {
  const { t } = useI18n();
  const streams = useStreams();
  const [opening, setOpening] = useState<keyof ProctorStreams | null>(null);
  const [problem, setProblem] = useState<{ step: MonitorStepKey; error: DeviceError } | null>(null);
  const state = useQuery({
    queryKey: queryKey(monitorCalls.monitorState, { exam_id: examId }),
    queryFn: ({ signal }) => request(monitorCalls.monitorState, { query: { exam_id: examId }, signal }),
    staleTime: Infinity,
  });
  const passed = new Set((state.data?.checks ?? []).filter((c) => c.result === 'passed').map((c) => c.step));
  const missing = DEVICES.filter((d) => passed.has(STEP_IDS[d.step]) && !isLive(streams[d.kind]));
  if (missing.length === 0) return null;

  const reopen = async (device: (typeof DEVICES)[number]) => {
    setOpening(device.kind);
    setProblem(null);
    try {
      setStream(device.kind, await device.open());
    } catch (e) {
      setProblem({ step: device.step, error: toDeviceError(e) });
    } finally {
      setOpening(null);
    }
  };

  return (
    <div data-testid="device-reconnect" style={{ marginBottom: 12 }}>
      {problem && (
        <DeviceProblem
          step={problem.step}
          error={problem.error}
          onRetry={() => {
            const device = DEVICES.find((d) => d.step === problem.step);
            if (device) void reopen(device);
          }}
        />
      )}
      <Alert
        type="warning"
        title={t('proctor.reconnect.title')}
        description={
          <Space>
            {missing.map((d) => (
              <Button
                key={d.kind}
                size="small"
                loading={opening === d.kind}
                onClick={() => void reopen(d)}
                data-testid={`reconnect-${d.kind}`}
              >
                {t(d.label)}
              </Button>
            ))}
          </Space>
        }
      />
    </div>
  );
}
