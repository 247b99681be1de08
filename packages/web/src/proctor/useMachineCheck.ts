/** The device check's look at the machine: a second screen, and signs of a virtual machine or remote desktop. */
import { monitorCalls, RISK_EVENTS, type ExamDetail } from '@examhall/contract';
import { useCallback, useEffect, useState } from 'react';
import { request } from '../api/client.js';
import { serverNow } from '../exam/clock.js';
import '../i18n/machine.js';
import { raiseMachine, watchEnvironment, type RaiseRisk, type ScreenReading } from './environment.js';
import { getStreams, isLive } from './streams.js';

/**
 * Watches the screens once the attempt exists to record on (`ready`): a second screen where the exam forbids one is
 * raised and `secondScreen` stays true until it is disconnected. The signs of a virtual machine or remote desktop are
 * raised once the camera is open (its shape is part of what is seen), or at once when the exam has no camera check.
 */
export function useMachineCheck(
  examId: number,
  ready: boolean,
  exam: Pick<ExamDetail, 'is_second_screen' | 'is_close_camera'> | undefined,
  camera: MediaStream | null,
): { secondScreen: boolean } {
  const [screens, setScreens] = useState<ScreenReading | null>(null);
  const forbid = exam ? exam.is_second_screen !== 1 : null;
  const raise: RaiseRisk = useCallback(
    (risk, text) =>
      request(monitorCalls.recordRisk, {
        body: {
          exam_id: examId,
          risk: RISK_EVENTS[risk].id,
          trigger_time: Math.round(serverNow()),
          detail: text,
          client_id: crypto.randomUUID(),
        },
      }),
    [examId],
  );
  useEffect(() => {
    if (!ready || forbid === null) return;
    return watchEnvironment({
      examId,
      where: 'check',
      forbidSecondScreen: forbid,
      camera: () => getStreams().camera,
      onScreens: setScreens,
      raise,
      machine: false,
    });
  }, [ready, forbid, examId, raise]);
  const cameraReady = isLive(camera) || exam?.is_close_camera === 1;
  useEffect(() => {
    if (ready && cameraReady) raiseMachine(examId, getStreams().camera, raise);
  }, [ready, cameraReady, examId, raise]);
  return { secondScreen: forbid === true && screens?.extended === true };
}
