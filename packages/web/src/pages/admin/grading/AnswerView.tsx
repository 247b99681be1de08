import { api, type GradingItemRef } from '@examhall/contract';
import { useQuery } from '@tanstack/react-query';
import { Col, Row, Skeleton, Typography } from 'antd';
import { request } from '../../../api/client.js';
import { queryKey } from '../../../api/queryKeys.js';
import { useI18n } from '../../../i18n/index.js';
import { LoadError } from '../shared/PageTitle.js';
import { MarksSideBySide } from './MarksSideBySide.js';
import { QuestionPanel } from './QuestionPanel.js';
import { RubricScorer, type MarkInput } from './RubricScorer.js';
import { WorkPanel } from './WorkPanel.js';

/**
 * One answer: question and rubric on one side, the candidate's work on the other, and the scorer when the caller
 * may mark it (`reconcile`: the deciding mark under both marks; `focusScorer`: its first box takes the focus).
 */
export function AnswerView({
  answer,
  reconcile = false,
  busy,
  focusScorer = false,
  onMark,
}: {
  answer: GradingItemRef;
  reconcile?: boolean;
  busy: boolean;
  focusScorer?: boolean;
  onMark: (mark: MarkInput) => void;
}) {
  const { t } = useI18n();
  const item = useQuery({
    queryKey: queryKey(api.gradingItem, { attempt_id: answer.attempt_id, question_id: answer.question_id }),
    queryFn: ({ signal }) => request(api.gradingItem, { query: answer, signal }),
  });
  if (item.error) return <LoadError error={item.error} />;
  if (!item.data) return <Skeleton active />;
  const it = item.data;
  const canMark = reconcile ? it.state === 'reconcile' : it.state === 'waiting' && it.my_mark === null;
  return (
    <Row gutter={[16, 16]} data-testid="grading-answer" data-attempt={it.attempt_id} data-question={it.question_id}>
      <Col xs={24} lg={10}>
        <QuestionPanel item={it} />
        <div style={{ marginTop: 16 }}>
          {reconcile && it.marks.length > 0 && <MarksSideBySide marks={it.marks} max={it.max} />}
          {canMark ? (
            <RubricScorer
              key={`${it.attempt_id}-${it.question_id}`}
              item={it}
              busy={busy}
              autoFocus={focusScorer}
              submitLabel={reconcile ? t('console.grading.reconcileSubmit') : t('console.grading.submit')}
              onSubmit={onMark}
            />
          ) : (
            it.my_mark && (
              <Typography.Text data-testid="item-my-mark">
                {t('console.grading.myMark', { total: it.my_mark.total })}
              </Typography.Text>
            )
          )}
        </div>
      </Col>
      <Col xs={24} lg={14}>
        <WorkPanel item={it} />
      </Col>
    </Row>
  );
}
