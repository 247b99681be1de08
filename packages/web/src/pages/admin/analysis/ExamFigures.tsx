import type { ExamAnalysisFigures } from '@examhall/contract';
import { Card, Col, Row, Statistic, Tag, Typography } from 'antd';
import { useI18n } from '../../../i18n/index.js';
import { alphaBand, figure } from './figures.js';

const BAND_COLOURS = { good: 'green', fair: 'blue', low: 'orange' } as const;

/** The exam as a whole: attempts, mean and spread of totals, and Cronbach's alpha with what it means. */
export function ExamFigures({ exam }: { exam: ExamAnalysisFigures }) {
  const { t } = useI18n();
  return (
    <Card>
      <Row gutter={[24, 16]}>
        <Col xs={12} md={4}>
          <Statistic title={t('analysis.exam.attempts')} value={exam.attempts} />
        </Col>
        <Col xs={12} md={4}>
          <Statistic title={t('analysis.exam.mean')} value={figure(exam.mean_total)} />
        </Col>
        <Col xs={12} md={4}>
          <Statistic title={t('analysis.exam.sd')} value={figure(exam.sd_total)} />
        </Col>
        <Col xs={24} md={12} data-testid="analysis-alpha" data-alpha={exam.alpha ?? ''}>
          <Statistic
            title={t('analysis.exam.alpha')}
            value={exam.alpha === null ? t('analysis.none') : exam.alpha.toFixed(3)}
            suffix={
              exam.alpha !== null && (
                <Tag color={BAND_COLOURS[alphaBand(exam.alpha)]}>{t(`analysis.alpha.${alphaBand(exam.alpha)}`)}</Tag>
              )
            }
          />
          <Typography.Paragraph type="secondary" style={{ margin: '4px 0 0' }}>
            {exam.alpha === null
              ? t('analysis.exam.alphaNone')
              : t('analysis.exam.alphaDef', { n: exam.alpha_attempts })}
          </Typography.Paragraph>
        </Col>
      </Row>
    </Card>
  );
}
