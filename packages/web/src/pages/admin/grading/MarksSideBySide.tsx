import type { GradingMarkView } from '@examhall/contract';
import { Card, Col, Row, Statistic, Typography } from 'antd';
import { useI18n } from '../../../i18n/index.js';

/** Two (or more) graders' marks next to each other: total, points per criterion and comment. */
export function MarksSideBySide({ marks, max }: { marks: GradingMarkView[]; max: number }) {
  const { t } = useI18n();
  return (
    <Row gutter={12} style={{ marginBottom: 16 }} data-testid="marks-side-by-side">
      {marks.map((m) => (
        <Col span={24 / Math.min(marks.length, 3)} key={m.id}>
          <Card
            size="small"
            title={m.grader_name}
            data-testid={`mark-${m.grader_id}${m.reconciling ? '-reconciling' : ''}`}
          >
            <Statistic value={m.total} suffix={`/ ${max}`} data-testid="mark-value" />
            {m.criteria.length > 0 && (
              <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
                {m.criteria.join(' · ')}
              </Typography.Paragraph>
            )}
            {m.comment && <Typography.Paragraph style={{ margin: 0 }}>{m.comment}</Typography.Paragraph>}
            {m.reconciling && <Typography.Text strong>{t('console.grading.reconcileOpen')}</Typography.Text>}
          </Card>
        </Col>
      ))}
    </Row>
  );
}
