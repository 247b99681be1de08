import { api, ExamMode, ExamPhase } from '@examhall/contract';
import { useMutation } from '@tanstack/react-query';
import { Alert, Button, Card, Checkbox, Skeleton, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { isApiError, request } from '../../api/client.js';
import { currentAuth } from '../../api/cookies.js';
import { alignIfUnset } from '../../exam/clock.js';
import { remember } from '../../exam/offlineCache.js';
import { pathForPhase, useExamDetail, useExamParams } from '../../exam/queries.js';
import { examSteps } from '../../exam/steps.js';
import { useI18n } from '../../i18n/index.js';
import { useDocumentTitle } from '../../shell/useDocumentTitle.js';

function errorText(e: unknown): string {
  return isApiError(e) ? e.msg : e instanceof Error ? e.message : String(e);
}

/**
 * The monitor phase: the exam's checks in order and the integrity pledge, which cannot be
 * skipped. Starting the exam phase starts the server's clock.
 */
export default function MonitorPage() {
  const { t } = useI18n();
  useDocumentTitle(t('monitor.pageTitle'));
  const location = useLocation();
  const navigate = useNavigate();
  const { examId, anid } = useExamParams();
  const detail = useExamDetail(examId, anid);
  const [promised, setPromised] = useState(false);
  const [tried, setTried] = useState(false);

  // Creates the attempt when the candidate arrives here directly, and learns its phase.
  const resume = useMutation({
    mutationFn: () => request(api.startExam, { body: { exam_id: examId, anid } }),
    onSuccess: (data) => {
      if (data.attempt.phase !== ExamPhase.monitor)
        void navigate(pathForPhase(examId, anid, data.attempt.phase), { replace: true });
    },
  });
  const { mutate: resumeAttempt } = resume;
  useEffect(() => resumeAttempt(), [resumeAttempt]);

  const start = useMutation({
    mutationFn: () => request(api.startExam, { body: { exam_id: examId, anid, phase: 2 } }),
    onSuccess: async (data) => {
      alignIfUnset(data.server_time);
      await remember(`attempt:${examId}`, data.attempt);
      await navigate(pathForPhase(examId, anid, data.attempt.phase), { replace: true });
    },
  });

  if (currentAuth() === null) {
    return <Navigate to={`/login?redirect=${encodeURIComponent(location.pathname + location.search)}`} replace />;
  }

  const onStart = () => {
    setTried(true);
    if (promised) start.mutate();
  };

  return (
    <div className="page-body">
      {detail.isError && <Alert type="error" showIcon role="alert" title={errorText(detail.error)} />}
      {resume.isError && (
        <Alert type="error" showIcon role="alert" title={t('entry.startFailed', { msg: errorText(resume.error) })} />
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
          <ol className="step-list" data-testid="monitor-steps">
            {examSteps(detail.data).map((s) => (
              <li key={s.id} data-testid="monitor-step" data-step={s.key}>
                <span>{t(`monitor.step.${s.key}`)}</span>{' '}
                <Tag color={s.skippable ? 'default' : 'blue'}>
                  {s.skippable ? t('monitor.skippable') : t('monitor.required')}
                </Tag>
              </li>
            ))}
          </ol>
          <section aria-labelledby="pledge-title" className="pledge">
            <Typography.Title level={2} style={{ fontSize: 18 }} id="pledge-title">
              {t('monitor.pledgeTitle')}
            </Typography.Title>
            <Typography.Paragraph data-testid="pledge-text">{t('monitor.pledgeText')}</Typography.Paragraph>
            <Checkbox checked={promised} onChange={(e) => setPromised(e.target.checked)} data-testid="pledge-check">
              {t('monitor.promise')}
            </Checkbox>
            {tried && !promised && (
              <Alert type="warning" showIcon role="alert" title={t('monitor.pledgeNeeded')} style={{ marginTop: 8 }} />
            )}
          </section>
          <Typography.Paragraph type="secondary" style={{ marginTop: 16 }}>
            {t('monitor.startHint')}
          </Typography.Paragraph>
          {start.isError && (
            <Alert
              type="error"
              showIcon
              role="alert"
              title={t('entry.startFailed', { msg: errorText(start.error) })}
              style={{ marginBottom: 12 }}
            />
          )}
          <Button type="primary" size="large" onClick={onStart} loading={start.isPending} data-testid="start-exam">
            {t('monitor.startExam')}
          </Button>
        </Card>
      )}
    </div>
  );
}
