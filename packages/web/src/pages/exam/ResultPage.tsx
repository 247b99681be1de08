import { dimensionName, type EvaluationDimension, type ExamResult, examCalls } from '@examhall/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Col, Empty, Input, Radio, Row, Skeleton, Statistic, Tag, Typography } from 'antd';
import { Form } from '../../shell/Form.js';
import { useRef } from 'react';
import { Link, Navigate, useLocation } from 'react-router';
import { errorText, request } from '../../api/client.js';
import { currentAuth } from '../../api/cookies.js';
import { shownOutcome } from '../../exam/outcome.js';
import { resultKey, useExamParams } from '../../exam/queries.js';
import { useI18n } from '../../i18n/index.js';
import { serverTime } from '../../shell/serverTime.js';
import { useDocumentTitle } from '../../shell/useDocumentTitle.js';
import { Explanations } from './Explanations.js';
import { IntegrityLog } from './IntegrityLog.js';

/** After the submit: what was handed in, the score where it is known, recommended positions, feedback. */
export default function ResultPage() {
  const { t } = useI18n();
  useDocumentTitle(t('result.pageTitle'));
  const location = useLocation();
  const { examId } = useExamParams();
  const state = location.state as { unsent?: number; reason?: string | null } | null;
  const unsent = state?.unsent ?? 0;
  // The candidate's own submit needs no explanation; the server's reasons are 'cuts', 'time' or 'proctor: <note>'.
  const told = state?.reason ?? sessionStorage.getItem(`exam-ended:${examId}`);
  const reason = told && told !== 'submit' ? told : null;
  const result = useQuery<ExamResult>({
    queryKey: resultKey(examId),
    queryFn: ({ signal }) => request(examCalls.examResult, { query: { exam_id: examId }, signal }),
  });

  if (currentAuth() === null) {
    return <Navigate to={`/login?redirect=${encodeURIComponent(location.pathname + location.search)}`} replace />;
  }
  const r = result.data;
  // Only what the exam lets candidates see: the server leaves out the rest.
  const outcome = r ? shownOutcome(r) : null;

  return (
    <div className="page-body">
      {unsent > 0 && (
        <Alert
          type="warning"
          showIcon
          role="alert"
          title={t('exam.submitUnsent', { n: unsent })}
          style={{ marginBottom: 16 }}
        />
      )}
      {reason !== null && (
        <Alert
          type="warning"
          showIcon
          role="alert"
          title={
            reason === 'cuts'
              ? t('integrity.ended.cuts')
              : reason === 'time'
                ? t('integrity.ended.time')
                : t('integrity.ended.other', { reason: reason.replace(/^proctor:\s*/, '') })
          }
          style={{ marginBottom: 16 }}
          data-testid="result-ended"
          data-reason={reason}
        />
      )}
      {result.isError && <Alert type="error" showIcon role="alert" title={errorText(result.error)} />}
      {result.isPending && (
        <Card>
          <Skeleton active />
        </Card>
      )}
      {r && (
        <Card data-testid="result">
          <Typography.Title level={1} style={{ fontSize: 24, marginTop: 0 }} data-testid="result-title">
            {t('result.submitted')}
          </Typography.Title>
          {r.practice && (
            <Alert
              type="warning"
              showIcon
              title={t('result.practice')}
              style={{ marginBottom: 16 }}
              data-testid="result-practice"
            />
          )}
          {r.attempt.finished_at !== null && (
            <Typography.Paragraph type="secondary">
              {t('result.submittedAt', { time: serverTime(r.attempt.finished_at) })}
            </Typography.Paragraph>
          )}
          <Row gutter={24}>
            {outcome?.kind === 'score' && (
              <Col>
                <Statistic
                  title={t('result.score')}
                  value={t('result.scoreValue', { score: outcome.score, max: outcome.max })}
                  data-testid="result-score"
                />
              </Col>
            )}
            {(outcome?.kind === 'pass' || (outcome?.kind === 'score' && outcome.passed !== null)) && (
              <Col>
                <Statistic
                  title={t('result.outcome')}
                  value={outcome.passed ? t('result.passed') : t('result.notPassed')}
                  data-testid="result-passed"
                  data-passed={outcome.passed}
                />
              </Col>
            )}
            <Col>
              <Statistic
                title={t('result.answered')}
                value={t('result.answeredValue', { answered: r.answered, total: r.total })}
                data-testid="result-answered"
              />
            </Col>
          </Row>
          {outcome?.kind === 'later' && (
            <Alert
              type="info"
              showIcon
              title={t('result.later')}
              style={{ marginTop: 16 }}
              data-testid="result-later"
            />
          )}
          {r.pending_manual > 0 && (
            <Alert
              type="info"
              showIcon
              title={t('result.pendingManual', { n: r.pending_manual })}
              style={{ marginTop: 16 }}
              data-testid="result-pending"
            />
          )}
          {r.evaluation && <Dimensions list={r.evaluation} />}
        </Card>
      )}

      {r?.explanations && <Explanations examId={examId} />}
      <Positions examId={examId} />

      <IntegrityLog examId={examId} />
      <Feedback examId={examId} />
      <p style={{ marginTop: 16 }}>
        <Link to="/exams">{t('result.back')}</Link>
      </p>
    </div>
  );
}

/**
 * The evaluation profile: each dimension by its name in the page's language when it is a well-known one, with its
 * score out of its most; a dimension none of whose items was answered says so instead of showing a score.
 */
function Dimensions({ list }: { list: EvaluationDimension[] }) {
  const { t, lang } = useI18n();
  if (list.length === 0) return null;
  const named = lang === 'zh-CN' ? 'zh' : 'en';
  return (
    <>
      <Typography.Title level={2} style={{ fontSize: 18, marginTop: 24 }}>
        {t('result.dimensions')}
      </Typography.Title>
      <ul className="dimension-list" data-testid="result-dimensions">
        {list.map((d) => (
          <li key={d.dimension} data-testid="result-dimension" data-dimension={d.dimension} data-answered={d.answered}>
            <Tag>{dimensionName(d.dimension, named)}</Tag>{' '}
            {d.answered === 0 ? (
              <Typography.Text type="secondary">{t('result.dimensionUnanswered')}</Typography.Text>
            ) : (
              <>
                {d.score} / {d.max}
                {d.answered < d.items && (
                  <Typography.Text type="secondary">
                    {' '}
                    {t('result.dimensionPartly', { answered: d.answered, items: d.items })}
                  </Typography.Text>
                )}
              </>
            )}
          </li>
        ))}
      </ul>
    </>
  );
}

/** The positions recommended to the candidate, in the server's order (the best match first). */
function Positions({ examId }: { examId: number }) {
  const { t } = useI18n();
  const positions = useQuery({
    queryKey: ['recommend', examId],
    queryFn: ({ signal }) => request(examCalls.recommendInfo, { query: { exam_id: examId }, signal }),
  });
  return (
    <Card style={{ marginTop: 16 }}>
      <Typography.Title level={2} style={{ fontSize: 18, marginTop: 0 }}>
        {t('result.positions')}
      </Typography.Title>
      {positions.isError && <Alert type="error" showIcon title={errorText(positions.error)} />}
      {positions.isPending && <Skeleton active />}
      {positions.data && positions.data.list.length === 0 && <Empty description={t('result.noPositions')} />}
      {positions.data && positions.data.list.length > 0 && (
        <ul className="position-grid" data-testid="positions">
          {positions.data.list.map((p) => (
            <li key={p.id}>
              <Card
                size="small"
                title={<h3 className="position-title">{p.title}</h3>}
                data-testid="position"
                data-match={p.match ?? ''}
              >
                <Typography.Paragraph type="secondary" style={{ marginBottom: 4 }}>
                  {p.department} · {p.city}
                </Typography.Paragraph>
                <Typography.Paragraph style={{ marginBottom: 4 }}>{p.description}</Typography.Paragraph>
                {p.match !== null && <Tag color="green">{t('result.match', { n: Math.round(p.match) })}</Tag>}
              </Card>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

function Feedback({ examId }: { examId: number }) {
  const { t } = useI18n();
  const clientId = useRef(crypto.randomUUID());
  const send = useMutation({
    mutationFn: (v: { rating: number; content?: string }) =>
      request(examCalls.feedback, {
        body: { exam_id: examId, rating: v.rating, content: v.content ?? '', client_id: clientId.current },
      }),
  });
  return (
    <Card style={{ marginTop: 16 }}>
      <Typography.Title level={2} style={{ fontSize: 18, marginTop: 0 }}>
        {t('result.feedback')}
      </Typography.Title>
      {send.isSuccess ? (
        <Alert type="success" showIcon role="status" title={t('result.feedbackThanks')} data-testid="feedback-thanks" />
      ) : (
        <Form
          layout="vertical"
          onFinish={(v: { rating: number; content?: string }) => send.mutate(v)}
          data-testid="feedback-form"
        >
          <Form.Item name="rating" label={t('result.rating')} rules={[{ required: true, message: t('result.rating') }]}>
            <Radio.Group
              optionType="button"
              options={[1, 2, 3, 4, 5].map((n) => ({ value: n, label: `${n} ★` }))}
              data-testid="feedback-rating"
            />
          </Form.Item>
          <Form.Item name="content" label={t('result.feedbackText')}>
            <Input.TextArea rows={3} maxLength={2000} data-testid="feedback-text" />
          </Form.Item>
          {send.isError && (
            <Alert
              type="error"
              showIcon
              role="alert"
              title={t('result.feedbackFailed', { msg: errorText(send.error) })}
              style={{ marginBottom: 12 }}
            />
          )}
          <Button type="primary" htmlType="submit" loading={send.isPending} data-testid="feedback-submit">
            {t('result.sendFeedback')}
          </Button>
        </Form>
      )}
    </Card>
  );
}
