import { ExamMode, ExamPhase, SECTIONS, type ExamDetail, examCalls, monitorCalls } from '@examhall/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Alert, Card, Flex, Skeleton, Space, Tag, Typography } from 'antd';
import type { ReactNode } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { request } from '../../api/client.js';
import { currentAuth } from '../../api/cookies.js';
import { pathForPhase, useExamDetail, useExamParams } from '../../exam/queries.js';
import { serverNow } from '../../exam/clock.js';
import { examSteps } from '../../exam/steps.js';
import { useI18n, type MessageKey } from '../../i18n/index.js';
import { useUserInfo } from '../../session/candidate.js';
import { serverTime } from '../../shell/serverTime.js';
import { ExamLoadError } from './ExamLoadError.js';
import { useDocumentTitle } from '../../shell/useDocumentTitle.js';
import { StartAttempt } from './StartAttempt.js';

/** Mode names, shared with the exam list. */
export const MODE_KEYS: Record<ExamDetail['mode'], MessageKey> = {
  [ExamMode.simulate]: 'exams.mode.simulate',
  [ExamMode.exam]: 'exams.mode.exam',
  [ExamMode.longTime]: 'exams.mode.longTime',
};

/**
 * The way into an exam: its detail and rules. A candidate whose profile is incomplete is sent
 * to the profile first; an attempt already under way goes straight to its phase.
 */
export default function EntryPage() {
  const location = useLocation();
  // Asked nothing before logging in: a link opened from a text lands here signed out.
  if (currentAuth() === null)
    return <Navigate to={`/login?redirect=${encodeURIComponent(location.pathname + location.search)}`} replace />;
  return <Entry />;
}

function Entry() {
  const { t } = useI18n();
  const location = useLocation();
  const navigate = useNavigate();
  const { examId, anid } = useExamParams();
  const user = useUserInfo();
  const detail = useExamDetail(examId, anid);
  useDocumentTitle(detail.data?.name ?? t('entry.pageTitle'));
  const invitation = useQuery({
    queryKey: ['anid-info', anid],
    queryFn: ({ signal }) => request(examCalls.anidInfo, { query: { anid }, signal }),
  });
  const start = useMutation({
    mutationFn: () => request(monitorCalls.startExam, { body: { exam_id: examId, anid } }),
    onSuccess: (data) => void navigate(pathForPhase(examId, anid, data.attempt.phase)),
  });

  const here = location.pathname + location.search;
  if (user.data?.info === 0) return <Navigate to={`/profile?redirect=${encodeURIComponent(here)}`} replace />;
  const phase = detail.data?.userData.phase ?? null;
  // A practice run may be taken again after its result; everything else resumes where it stands.
  const resumable = phase !== null && !(phase === ExamPhase.submit && detail.data?.mode === ExamMode.simulate);
  if (detail.data && resumable) return <Navigate to={pathForPhase(examId, anid, phase)} replace />;

  return (
    <div className="page-body">
      <p>
        <Link to="/exams">{t('entry.back')}</Link>
      </p>
      {detail.isError && <ExamLoadError error={detail.error} />}
      {(detail.isPending || user.isPending) && !detail.isError && (
        <Card>
          <Skeleton active />
        </Card>
      )}
      {detail.data && user.data && (
        <Card>
          <Flex justify="space-between" align="start" wrap gap={12}>
            <Typography.Title level={1} style={{ fontSize: 24, marginTop: 0 }} data-testid="entry-exam-name">
              {detail.data.name}
            </Typography.Title>
            <Tag color={detail.data.mode === ExamMode.simulate ? 'gold' : 'blue'} data-testid="entry-mode">
              {t(MODE_KEYS[detail.data.mode])}
            </Tag>
          </Flex>
          {invitation.data && (
            <Typography.Paragraph type="secondary">
              {t('entry.invitation', { phone: invitation.data.phone_masked })}
            </Typography.Paragraph>
          )}
          <div className="exam-description" dangerouslySetInnerHTML={{ __html: detail.data.description }} />
          <ModeNote detail={detail.data} />
          {detail.data.id_photo_missing && (
            <Alert
              type="warning"
              showIcon
              role="alert"
              title={t('error.id_photo_missing')}
              style={{ marginBottom: 16 }}
              data-testid="id-photo-missing"
            />
          )}
          <ExamFacts detail={detail.data} />
          {/* Once the candidate's window has closed there is nothing to start (the server would refuse it). */}
          {serverNow() >= detail.data.window_end ? (
            <Alert
              type="info"
              showIcon
              role="status"
              title={t('entry.closed', { end: serverTime(detail.data.window_end) })}
              data-testid="entry-closed"
            />
          ) : (
            <StartAttempt start={start} label={t('entry.start')} testId="entry-start" />
          )}
        </Card>
      )}
    </div>
  );
}

function ModeNote({ detail }: { detail: ExamDetail }) {
  const { t } = useI18n();
  const text =
    detail.mode === ExamMode.simulate
      ? t('entry.practiceNote')
      : detail.mode === ExamMode.exam
        ? t('entry.examNote')
        : t('entry.longTimeNote', { end: serverTime(detail.end_at) });
  return (
    <Alert
      type={detail.mode === ExamMode.simulate ? 'warning' : 'info'}
      showIcon
      title={text}
      style={{ margin: '16px 0' }}
      data-testid="entry-mode-note"
    />
  );
}

function ExamFacts({ detail }: { detail: ExamDetail }) {
  const { t } = useI18n();
  const allowed = (flag: 0 | 1) => (
    <Tag color={flag === 1 ? 'green' : 'default'}>{flag === 1 ? t('entry.allowed') : t('entry.notAllowed')}</Tag>
  );
  return (
    <>
      <Typography.Title level={2} style={{ fontSize: 18 }}>
        {t('entry.rules')}
      </Typography.Title>
      <dl className="facts-grid" data-testid="entry-rules">
        <Fact label={t('entry.time')}>{t('common.minutes', { n: detail.time })}</Fact>
        <Fact label={t('entry.window')}>
          {t('exams.windowRange', { from: serverTime(detail.start_at), to: serverTime(detail.end_at) })}
        </Fact>
        <Fact label={t('entry.questions')}>
          <Space wrap>
            {SECTIONS.filter((s) => detail.countNum[s] > 0).map((s) => (
              <span key={s}>{t('entry.sectionCount', { name: t(`section.${s}`), n: detail.countNum[s] })}</span>
            ))}
          </Space>
        </Fact>
        <Fact label={t('entry.perm.paste')}>{allowed(detail.is_paste)}</Fact>
        <Fact label={t('entry.perm.copy')}>{allowed(detail.is_copy_question)}</Fact>
        <Fact label={t('entry.perm.upload')}>{allowed(detail.is_upload_file)}</Fact>
        <Fact label={t('entry.cuttingTimes')}>{detail.cutting_times}</Fact>
        <Fact label={t('entry.checks')}>
          <Space wrap>
            {examSteps(detail).map((s) => (
              <Tag key={s.id}>
                {t(`monitor.step.${s.key}`)} · {s.skippable ? t('monitor.skippable') : t('monitor.required')}
              </Tag>
            ))}
          </Space>
        </Fact>
      </dl>
    </>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="fact">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}
