/** What every device step shares: its props, opening its device, and recording its outcome through TanStack Query. */
import { type MonitorStepKey, monitorCalls } from '@examhall/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { errorText } from '../../api/client.js';
import { queryKey } from '../../api/queryKeys.js';
import { recordCheck } from '../checks.js';
import { toDeviceError, type DeviceError } from '../devices.js';
import { isLive, setStream, useRenderOnTrackEnd, useStreams } from '../streams.js';

/** How a step ended. */
export type StepOutcome = 'passed' | 'skipped';

/** What every step gets from the page. */
export interface StepProps {
  /** Exam id. */
  examId: number;
  /** Invitation id. */
  anid: number;
  /** True when the exam allows skipping this step. */
  skippable: boolean;
  /** True when the server already holds this step's pass (only the device has to be opened again). */
  recorded: boolean;
  /** Called once the step is passed or skipped. */
  onDone: (outcome: StepOutcome) => void;
}

/**
 * Records the step's outcome with /monitor/check (a pass the server already holds is not sent again), refreshes
 * the monitor state every page reads, and moves on; `error` is the failure to show, in the page's language.
 */
export function useRecordCheck(props: StepProps, step: MonitorStepKey) {
  const client = useQueryClient();
  const mutation = useMutation({
    mutationFn: async ({ result, device }: { result: StepOutcome; device?: string | undefined }) => {
      if (!props.recorded || result === 'skipped') await recordCheck(props.examId, step, result, device);
      return result;
    },
    onSuccess: async (result) => {
      await client.invalidateQueries({ queryKey: queryKey(monitorCalls.monitorState, { exam_id: props.examId }) });
      props.onDone(result);
    },
  });
  return {
    busy: mutation.isPending,
    error: mutation.isError ? errorText(mutation.error) : null,
    run: (result: StepOutcome, device?: string) => mutation.mutate({ result, device }),
  };
}

/** A step's recorder. */
export type StepRecorder = ReturnType<typeof useRecordCheck>;

/** Opens a device on request; answers the stream from the store and the last failure. */
export function useDevice(kind: 'camera' | 'microphone' | 'screen', open: () => Promise<MediaStream>) {
  const streams = useStreams();
  const stream = streams[kind];
  const [opening, setOpening] = useState(false);
  const [problem, setProblem] = useState<DeviceError | null>(null);
  // A track ended (device unplugged, sharing stopped from the browser bar) shows the step's button again.
  useRenderOnTrackEnd(stream);
  const start = async () => {
    setOpening(true);
    setProblem(null);
    try {
      setStream(kind, await open());
    } catch (e) {
      const error = toDeviceError(e);
      console.warn(`[proctor] ${kind}: ${error.message}`);
      setProblem(error);
    } finally {
      setOpening(false);
    }
  };
  return { stream: isLive(stream) ? stream : null, opening, problem, start };
}

/** A step's device. */
export type StepDevice = ReturnType<typeof useDevice>;
