import { ExamMode, ExamPhase, monitorCalls } from '@examhall/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Skeleton, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { errorText, isApiError, request } from '../../api/client.js';
import { queryKey } from '../../api/queryKeys.js';
import { currentAuth } from '../../api/cookies.js';
import { alignIfUnset, serverNow } from '../../exam/clock.js';
import { useStartWave } from '../../exam/startWave.js';
import { ownPledge } from '../../exam/outcome.js';
import { remember } from '../../exam/offlineCache.js';
import { pathForPhase, useExamDetail, useExamParams } from '../../exam/queries.js';
import { examSteps, type ExamStep } from '../../exam/steps.js';
import { useI18n } from '../../i18n/index.js';
import { STEP_IDS } from '../../proctor/checks.js';
import { useMachineCheck } from '../../proctor/useMachineCheck.js';
import {
  CameraStep,
  MicrophoneStep,
  MobileStep,
  ScreenStep,
  SignatureStep,
  type StepOutcome,
  type StepProps,
} from '../../proctor/steps/index.js';
import { checkProgress } from '../../proctor/steps/progress.js';
import { getStreams, isLive, useStreams, type ProctorStreams } from '../../proctor/streams.js';
import { ChecksDoneNotice, MonitorStepBar, MonitorStepList } from './MonitorStepList.js';
import { useDocumentTitle } from '../../shell/useDocumentTitle.js';
import { StartAttempt } from './StartAttempt.js';
import { StartWaitNotice } from './StartWaitNotice.js';

/** The stream a device step keeps open for the exam. */
const STREAM_OF: Partial<Record<ExamStep['key'], keyof ProctorStreams>> = {
  camera: 'camera',
  microphone: 'microphone',
  screenSharing: 'screen',
};

/** True when the step has no device to keep open, or its stream is open in this page. */
function deviceLive(step: ExamStep['key']): boolean {
  const stream = STREAM_OF[step];
  return stream === undefined || isLive(getStreams()[stream]);
}

/**
 * The monitor phase: the exam's checks in order (camera, microphone, screen sharing, phone,
 * signed pledge), each passed or, where the exam allows, skipped; then the exam starts, which
 * starts the server's clock. The opened streams stay in the shared store for the exam page.
 */
export default function MonitorPage() {
  const { t } = useI18n();
  useDocumentTitle(t('monitor.pageTitle'));
  const location = useLocation();
  const navigate = useNavigate();
  const { examId, anid } = useExamParams();
  const detail = useExamDetail(examId, anid);
  const streams = useStreams();
  // Steps finished in this page, with how (a pass the server holds still needs its device opened here).
  const [local, setLocal] = useState<ReadonlyMap<number, StepOutcome>>(new Map());

  // Creates the attempt when the candidate arrives here directly, and learns its phase.
  const resume = useMutation({
    mutationFn: () => request(monitorCalls.startExam, { body: { exam_id: examId, anid } }),
    onSuccess: (data) => {
      // Captures and upload signatures use the server's time, not a browser clock that may be off.
      alignIfUnset(data.server_time);
      if (data.attempt.phase !== ExamPhase.monitor)
        void navigate(pathForPhase(examId, anid, data.attempt.phase), { replace: true });
    },
  });
  const { mutate: resumeAttempt } = resume;
  useEffect(() => resumeAttempt(), [resumeAttempt]);

  // The machine: a second screen the exam forbids must be disconnected before the exam starts.
  const { secondScreen } = useMachineCheck(examId, resume.isSuccess, detail.data, streams.camera);

  // What the server already holds (checks passed before a reload); read once the attempt exists.
  const state = useQuery({
    queryKey: queryKey(monitorCalls.monitorState, { exam_id: examId }),
    queryFn: ({ signal }) => request(monitorCalls.monitorState, { query: { exam_id: examId }, signal }),
    enabled: resume.isSuccess,
    staleTime: Infinity,
  });

  const start = useMutation({
    mutationFn: () => request(monitorCalls.startExam, { body: { exam_id: examId, anid, phase: 2 } }),
    onSuccess: async (data) => {
      alignIfUnset(data.server_time);
      await remember(`attempt:${examId}`, data.attempt);
      await navigate(pathForPhase(examId, anid, data.attempt.phase), { replace: true });
    },
    // The server names checks that have not passed: show the steps again as it sees them.
    onError: (e) => {
      if (!isApiError(e) || e.code !== 'checks_incomplete') return;
      setLocal(new Map());
      void state.refetch();
    },
  });
  const refused = start.isError && isApiError(start.error) && start.error.code === 'checks_incomplete';
  // Before the opening, or in the queue of a start wave: the page waits and presses again by itself.
  const wait = useStartWave(start, serverNow);

  if (currentAuth() === null) {
    return <Navigate to={`/login?redirect=${encodeURIComponent(location.pathname + location.search)}`} replace />;
  }

  const steps = detail.data ? examSteps(detail.data) : [];
  const recorded = state.data?.checks ?? [];
  // `streams` is read so a device that stops re-opens its step.
  void streams;
  const progress = state.data ? checkProgress(steps, recorded, local, deviceLive) : null;
  const currentIndex = progress?.current ?? -1;
  const current = currentIndex >= 0 ? steps[currentIndex] : undefined;
  const allDone = !!progress && steps.length > 0 && currentIndex === -1;

  const stepProps = (step: ExamStep): StepProps => ({
    examId,
    anid,
    skippable: step.skippable,
    recorded: recorded.some((c) => c.step === STEP_IDS[step.key] && c.result === 'passed'),
    onDone: (outcome) => setLocal((prev) => new Map(prev).set(step.id, outcome)),
  });

  // The exam's own pledge keeps the author's line breaks; without one, the standard pledge.
  const own = detail.data ? ownPledge(detail.data) : null;
  const pledge = (
    <Typography.Paragraph data-testid="pledge-text" data-own={own !== null} style={{ whiteSpace: 'pre-wrap' }}>
      {own ?? t('monitor.pledgeText')}
    </Typography.Paragraph>
  );

  return (
    <div className="page-body">
      {detail.isError && <Alert type="error" showIcon role="alert" title={errorText(detail.error)} />}
      {resume.isError && (
        <Alert type="error" showIcon role="alert" title={t('entry.startFailed', { msg: errorText(resume.error) })} />
      )}
      {detail.data?.id_photo_missing && (
        <Alert
          type="warning"
          showIcon
          role="alert"
          title={t('error.id_photo_missing')}
          data-testid="id-photo-missing"
        />
      )}
      {secondScreen && (
        <Alert
          type="warning"
          showIcon
          role="alert"
          data-testid="second-screen"
          title={t('proctor.secondScreen.title')}
          description={t('proctor.secondScreen.body')}
          style={{ marginBottom: 12 }}
        />
      )}
      {refused && (
        <Alert
          type="error"
          showIcon
          role="alert"
          data-testid="checks-refused"
          title={errorText(start.error)}
          style={{ marginBottom: 12 }}
        />
      )}
      {state.isError && (
        <Alert
          type="error"
          showIcon
          role="alert"
          title={t('proctor.stateFailed', { msg: errorText(state.error) })}
          action={
            <Button size="small" onClick={() => void state.refetch()}>
              {t('common.retry')}
            </Button>
          }
        />
      )}
      {!detail.data ? (
        !detail.isError && (
          <Card>
            <Skeleton active />
          </Card>
        )
      ) : (
        <Card>
          <Typography.Title level={1} style={{ fontSize: 24, marginTop: 0 }}>
            {detail.data.name}
          </Typography.Title>
          {detail.data.mode === ExamMode.simulate && (
            <Tag color="gold" style={{ marginBottom: 12 }} data-testid="practice-badge">
              {t('exam.practiceBadge')}
            </Tag>
          )}
          <Typography.Title level={2} style={{ fontSize: 18 }}>
            {t('monitor.steps')}
          </Typography.Title>
          <MonitorStepList steps={steps} statuses={progress?.statuses ?? null} />
          <MonitorStepBar steps={steps} statuses={progress?.statuses ?? null} />
          {!state.data && !state.isError && <Skeleton active />}
          {current && (
            <section aria-labelledby="current-step-title" data-testid="current-step" data-step={current.key}>
              <Typography.Title level={2} style={{ fontSize: 18 }} id="current-step-title">
                {t('proctor.stepTitle', {
                  n: currentIndex + 1,
                  total: steps.length,
                  name: t(`monitor.step.${current.key}`),
                })}
              </Typography.Title>
              {current.key === 'camera' && <CameraStep key={current.id} {...stepProps(current)} />}
              {current.key === 'microphone' && <MicrophoneStep key={current.id} {...stepProps(current)} />}
              {current.key === 'screenSharing' && <ScreenStep key={current.id} {...stepProps(current)} />}
              {current.key === 'mobileDevice' && <MobileStep key={current.id} {...stepProps(current)} />}
              {current.key === 'signature' && (
                <SignatureStep key={current.id} {...stepProps(current)} pledge={pledge} />
              )}
            </section>
          )}
          {allDone && (
            <section data-testid="checks-done">
              <ChecksDoneNotice statuses={progress.statuses} />
              <Typography.Paragraph type="secondary" style={{ marginTop: 16 }}>
                {t('monitor.startHint')}
              </Typography.Paragraph>
              {wait && <StartWaitNotice wait={wait} />}
              {/* The exam starts once the second screen is disconnected (the alert above says so). */}
              {!secondScreen && (
                <StartAttempt
                  start={{ ...start, isError: start.isError && !wait && !refused }}
                  label={t('monitor.startExam')}
                  testId="start-exam"
                  autoFocus
                />
              )}
            </section>
          )}
        </Card>
      )}
    </div>
  );
}
