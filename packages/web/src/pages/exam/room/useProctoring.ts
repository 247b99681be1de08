/**
 * Proctoring through the exam: captures on the exam's interval and a picture at every risk event, the risk
 * detectors, warnings, the live stream, and the phone's status read now and then while the stream is down.
 */
import { type AttemptView, type ExamDetail, monitorCalls, RISK_EVENTS } from '@examhall/contract';
import { useEffect, useRef, useState } from 'react';
import { request } from '../../../api/client.js';
import type { Outbox } from '../../../exam/outbox.js';
import { useI18n } from '../../../i18n/index.js';
import { onFrameRecorded, startProctoring, type Proctoring } from '../../../proctor/captures.js';
import type { FaceMonitor } from '../../../proctor/faceMonitor.js';
import { useRiskDetectors } from '../../../proctor/risks.js';
import { getStreams } from '../../../proctor/streams.js';
import { useCandidateEvents, useWarnings } from '../../../proctor/warnings.js';
import { showToast } from '../../../ui/toast.js';

/** How often the phone's status is read while the live stream is down. */
const PHONE_POLL_MS = 15_000;

/** Starts proctoring for the page's life; `endedReason` is set when the server ends the attempt. */
export function useProctoring(detail: ExamDetail, attempt: AttemptView, box: Outbox | null) {
  const { t } = useI18n();
  const examId = detail.id;
  const proctoring = useRef<Proctoring | null>(null);
  useEffect(() => {
    const p = startProctoring(examId);
    proctoring.current = p;
    return () => {
      p.stop();
      proctoring.current = null;
    };
  }, [examId]);
  // Every recorded camera frame goes through the face models in this browser; a problem that starts is raised
  // naming the frame, which the server checks again. The monitor's code and the models load at the first frame,
  // so the exam page stays light and an exam without a camera never loads them.
  useEffect(() => {
    if (!box) return;
    let monitor: FaceMonitor | null = null;
    let loading = false;
    let stopped = false;
    const unsubscribe = onFrameRecorded((frame) => {
      if (monitor) return monitor.frame(frame);
      if (loading) return;
      loading = true;
      void import('../../../proctor/faceMonitor.js').then(
        ({ startFaceMonitor }) => {
          if (stopped) return;
          monitor = startFaceMonitor((finding, imageKey) => {
            void box.recordRisk(RISK_EVENTS[finding.risk].id, finding.detail, imageKey).catch(() => undefined);
          });
          monitor.frame(frame);
        },
        (e: unknown) => console.warn('[proctor] face monitor not loaded:', e instanceof Error ? e.message : e),
      );
    });
    return () => {
      stopped = true;
      unsubscribe();
      monitor?.stop();
    };
  }, [box]);
  // The machine through the exam: a second screen connected (the exam forbidding one) and signs of a virtual machine
  // or remote desktop are raised for the proctor. Their code loads after the page, off its own bundle.
  useEffect(() => {
    if (!box) return;
    const watching = import('../../../proctor/environment.js').then((m) =>
      m.watchExam(box, detail, () => getStreams().camera),
    );
    return () => void watching.then((stop) => stop());
  }, [box, detail]);
  const [endedReason, setEndedReason] = useState<string | null>(null);
  const risks = useRiskDetectors({
    examId,
    box,
    cutsLeft: attempt.cuts_left,
    allowPaste: detail.is_paste === 1,
    allowCopy: detail.is_copy_question === 1,
    onPasteBlocked: () => showToast('warning', t('exam.pasteBlocked'), 'paste-blocked'),
    onCopyBlocked: () => showToast('warning', t('exam.copyBlocked'), 'copy-blocked'),
    pertinent: (id) => void proctoring.current?.pertinent(id),
    onEnded: setEndedReason,
  });
  const warnings = useWarnings(examId);
  const { phoneStatus } = risks;
  const live = useCandidateEvents(examId, {
    onWarning: warnings.add,
    onEnded: setEndedReason,
    onPhone: phoneStatus,
  });
  // Without the live stream the phone's status is read now and then, so a phone that stops is still seen.
  const phoneWatched = detail.is_close_phone !== 1;
  useEffect(() => {
    if (live || !phoneWatched) return;
    const read = () =>
      void request(monitorCalls.monitorState, { query: { exam_id: examId } }).then(
        (s) => phoneStatus(s.mobileDeviceStatus),
        () => undefined,
      );
    read();
    const timer = setInterval(read, PHONE_POLL_MS);
    return () => clearInterval(timer);
  }, [live, phoneWatched, examId, phoneStatus]);
  return { risks, warnings, live, endedReason };
}
