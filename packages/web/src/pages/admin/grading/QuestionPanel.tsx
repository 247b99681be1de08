import type { GradingItemData } from '@examhall/contract';
import { Card, Descriptions, Tag, Typography } from 'antd';
import { Html } from '../../../exam/questions/Html.js';
import { useI18n } from '../../../i18n/index.js';

/** The question side of an answer: its stem, where it stands, the rubric's text and who wrote it (blind: the attempt's number only). */
export function QuestionPanel({ item }: { item: GradingItemData }) {
  const { t } = useI18n();
  return (
    <Card
      title={t('console.grading.question', { n: item.order_num, max: item.max })}
      extra={<Tag data-testid="item-state">{t(`console.grading.state.${item.state}`)}</Tag>}
      data-testid="grading-question"
    >
      <Html html={item.stem} className="question-stem" />
      {item.rubric && (
        <>
          <Typography.Title level={2} style={{ fontSize: 16 }}>
            {t('console.grading.rubric')}
          </Typography.Title>
          <Typography.Paragraph style={{ whiteSpace: 'pre-wrap' }} data-testid="item-rubric">
            {item.rubric}
          </Typography.Paragraph>
        </>
      )}
      {item.blind ? (
        <Typography.Paragraph type="secondary" data-testid="item-blind">
          {t('console.grading.hidden', { attempt: item.attempt_id })}
        </Typography.Paragraph>
      ) : (
        item.candidate && (
          <Descriptions size="small" column={1} title={t('console.grading.candidate')} data-testid="item-candidate">
            <Descriptions.Item label={t('console.grading.candidate')}>
              {item.candidate.name || t('console.common.notGiven')}
            </Descriptions.Item>
            <Descriptions.Item label={t('console.grading.phone')}>{item.candidate.phone}</Descriptions.Item>
            <Descriptions.Item label={t('console.grading.school')}>
              {item.candidate.school || t('console.common.notGiven')}
            </Descriptions.Item>
          </Descriptions>
        )
      )}
      {item.final !== null && (
        <Typography.Text strong data-testid="item-final">
          {t('console.grading.final', { points: item.final })}
        </Typography.Text>
      )}
    </Card>
  );
}
