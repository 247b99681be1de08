import { reviewCalls, type ExplainedQuestion } from '@examhall/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Card, Skeleton, Tag, Typography } from 'antd';
import { errorText, request } from '../../api/client.js';
import { Html } from '../../exam/questions/Html.js';
import '../../i18n/explanations.js';
import { useI18n } from '../../i18n/index.js';
import { typeLabel } from '../../questions/labels.js';

/**
 * The explanations of the submitted attempt's questions, asked for only once the result says the exam shows them:
 * each question with its options (the candidate's choice marked, each option's feedback under it) and its
 * explanation.
 */
export function Explanations({ examId }: { examId: number }) {
  const { t } = useI18n();
  const explained = useQuery({
    queryKey: ['exam-explanations', examId],
    queryFn: ({ signal }) => request(reviewCalls.examExplanations, { query: { exam_id: examId }, signal }),
  });
  return (
    <Card style={{ marginTop: 16 }} data-testid="explanations">
      <Typography.Title level={2} style={{ fontSize: 18, marginTop: 0 }}>
        {t('result.explanations')}
      </Typography.Title>
      {explained.isError && <Alert type="error" showIcon role="alert" title={errorText(explained.error)} />}
      {explained.isPending && <Skeleton active />}
      {explained.data?.list.length === 0 && (
        <Typography.Paragraph type="secondary">{t('result.noExplanations')}</Typography.Paragraph>
      )}
      {explained.data && explained.data.list.length > 0 && (
        <ol className="explanation-list" style={{ paddingLeft: 0, listStyle: 'none' }}>
          {explained.data.list.map((q) => (
            <Explained key={q.id} q={q} />
          ))}
        </ol>
      )}
    </Card>
  );
}

/** One question: its number and type, stem, options with the candidate's choice and feedback, and explanation. */
function Explained({ q }: { q: ExplainedQuestion }) {
  const { t, lang } = useI18n();
  const chosen = new Set(q.chosen ?? []);
  // Feedback of sub-questions' options ('2.A'): listed after the question's own options.
  const subFeedback = Object.entries(q.explanation.options).filter(([id]) => id.includes('.'));
  const heading = t('result.explainedQuestion', { n: q.order_num, type: typeLabel(q.type, lang) });
  return (
    <li style={{ marginBottom: 24 }} data-testid="explained" data-question={q.id}>
      <Typography.Title level={3} style={{ fontSize: 16 }}>
        {heading}
      </Typography.Title>
      <Html html={q.stem} />
      {q.options && (
        <ul style={{ paddingLeft: 0, listStyle: 'none' }} aria-label={t('result.optionsOf', { n: q.order_num })}>
          {q.options.map((o) => {
            const feedback = q.explanation.options[o.id];
            return (
              <li key={o.id} style={{ marginBottom: 8 }} data-testid="explained-option" data-option={o.id}>
                <span style={{ display: 'flex', gap: 8, alignItems: 'baseline' }}>
                  <strong>{o.id}.</strong>
                  <Html html={o.content} as="span" />
                  {chosen.has(o.id) && (
                    <Tag color="blue" data-testid="explained-chosen">
                      {t('result.yourChoice')}
                    </Tag>
                  )}
                </span>
                {feedback && (
                  <div className="option-feedback" style={{ marginLeft: 24 }} data-testid="option-feedback">
                    <Typography.Text type="secondary">{t('result.feedbackLabel')}</Typography.Text>
                    <Html html={feedback} />
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {subFeedback.length > 0 && (
        <ul style={{ paddingLeft: 0, listStyle: 'none' }}>
          {subFeedback.map(([id, html]) => {
            const [sub, option] = id.split('.');
            return (
              <li key={id} data-testid="option-feedback" data-option={id}>
                <Typography.Text type="secondary">{t('result.subFeedback', { n: sub!, id: option! })}</Typography.Text>
                <Html html={html} />
              </li>
            );
          })}
        </ul>
      )}
      {q.explanation.text && (
        <div className="explanation-text" data-testid="explanation-text">
          <Typography.Text strong>{t('result.explanation')}</Typography.Text>
          <Html html={q.explanation.text} />
        </div>
      )}
    </li>
  );
}
