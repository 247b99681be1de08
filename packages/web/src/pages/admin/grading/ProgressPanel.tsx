import { api, type GradingProgressData } from '@examhall/contract';
import { useQuery } from '@tanstack/react-query';
import { Card, Col, Empty, Progress, Row, Table, type TableColumnsType } from 'antd';
import { request } from '../../../api/client.js';
import { queryKey } from '../../../api/queryKeys.js';
import { useI18n } from '../../../i18n/index.js';
import { LoadError } from '../shared/PageTitle.js';

type QuestionRow = GradingProgressData['questions'][number];
type GraderRow = GradingProgressData['graders'][number];

const percent = (done: number, total: number) => (total === 0 ? 100 : Math.round((done / total) * 100));

/** Grading progress of an exam: overall, per grader and per question. */
export function ProgressPanel({ examId }: { examId: number }) {
  const { t } = useI18n();
  const progress = useQuery({
    queryKey: queryKey(api.gradingProgress, { exam_id: examId }),
    queryFn: ({ signal }) => request(api.gradingProgress, { query: { exam_id: examId }, signal }),
    refetchInterval: 15_000,
  });
  const p = progress.data;
  const questions: TableColumnsType<QuestionRow> = [
    { title: '#', dataIndex: 'order_num' },
    {
      title: t('console.grading.progress'),
      key: 'progress',
      render: (_, q) => (
        <Progress
          percent={percent(q.graded, q.total)}
          format={() => `${q.graded} / ${q.total}`}
          aria-label={`${t('console.grading.progress')} #${q.order_num}`}
        />
      ),
    },
    { title: t('console.grading.reconcileCount'), dataIndex: 'reconcile' },
  ];
  const graders: TableColumnsType<GraderRow> = [
    { title: t('console.grading.graders'), dataIndex: 'name' },
    { title: t('console.grading.marksCount'), dataIndex: 'marks' },
  ];
  return (
    <>
      <LoadError error={progress.error} />
      {p && (
        <Row gutter={[16, 16]} data-testid="grading-progress">
          <Col span={24}>
            <Progress
              percent={percent(p.graded, p.total)}
              format={() => `${p.graded} / ${p.total}`}
              aria-label={t('console.grading.progress')}
              data-testid="grading-progress-bar"
            />
          </Col>
          <Col xs={24} lg={12}>
            <Card title={t('console.grading.questions')}>
              <Table<QuestionRow>
                rowKey="question_id"
                size="small"
                columns={questions}
                dataSource={p.questions}
                pagination={false}
              />
            </Card>
          </Col>
          <Col xs={24} lg={12}>
            <Card title={t('console.grading.graders')}>
              <Table<GraderRow>
                rowKey="staff_id"
                size="small"
                columns={graders}
                dataSource={p.graders}
                pagination={false}
                locale={{ emptyText: <Empty description={t('console.grading.noGraders')} /> }}
              />
            </Card>
          </Col>
        </Row>
      )}
    </>
  );
}
