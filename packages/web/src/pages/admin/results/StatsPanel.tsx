import { enumText, SECTION_TEXTS } from '@examhall/contract';
import { Card, Col, Row, Skeleton, Statistic, Typography } from 'antd';
import { Suspense } from 'react';
import { useI18n } from '../../../i18n/index.js';
import { LoadError } from '../shared/PageTitle.js';
import { ScoreChart, SectionChart, TimeChart } from './lazyCharts.js';
import { useResultStats } from './statsQuery.js';

/** The exam's figures: mean, median, top and pass counts, with the score distribution, section and time charts. */
export function StatsPanel({ examId }: { examId: number }) {
  const { t, lang } = useI18n();
  const stats = useResultStats(examId);
  const s = stats.data;
  if (stats.error) return <LoadError error={stats.error} />;
  if (!s) return <Skeleton active />;
  if (s.attempts === 0) return null;
  const loading = <Skeleton active title={false} paragraph={{ rows: 5 }} />;
  const names = {
    linetest: enumText(SECTION_TEXTS, 'linetest', lang),
    major: enumText(SECTION_TEXTS, 'major', lang),
  };
  return (
    <Row gutter={[16, 16]}>
      <Col span={24}>
        <Row gutter={16}>
          <Col xs={12} md={6}>
            <Statistic title={t('console.results.stats.mean')} value={s.mean ?? 0} />
          </Col>
          <Col xs={12} md={6}>
            <Statistic title={t('console.results.stats.median')} value={s.median ?? 0} />
          </Col>
          <Col xs={12} md={6}>
            <Statistic title={t('console.results.stats.top')} value={s.top ?? 0} suffix={`/ ${s.max_score}`} />
          </Col>
          <Col xs={12} md={6}>
            <Typography.Text type="secondary" data-testid="results-pass-counts">
              {s.pass_rule ? t('console.results.stats.pass', s.pass) : t('console.results.stats.noPassRule')}
            </Typography.Text>
          </Col>
        </Row>
      </Col>
      <Col xs={24} lg={8}>
        <Card title={t('console.results.chart.distribution')} size="small" data-testid="score-chart">
          <Suspense fallback={loading}>
            <ScoreChart
              stats={s}
              label={t('console.results.chart.distribution')}
              countLabel={t('console.results.chart.count')}
            />
          </Suspense>
        </Card>
      </Col>
      <Col xs={24} lg={8}>
        <Card title={t('console.results.chart.sections')} size="small" data-testid="section-chart">
          <Suspense fallback={loading}>
            <SectionChart
              stats={s}
              names={names}
              label={t('console.results.chart.sections')}
              meanLabel={t('console.results.chart.mean')}
              maxLabel={t('console.results.chart.max')}
            />
          </Suspense>
        </Card>
      </Col>
      <Col xs={24} lg={8}>
        <Card title={t('console.results.chart.time')} size="small" data-testid="time-chart">
          <Suspense fallback={loading}>
            <TimeChart stats={s} label={t('console.results.chart.time')} />
          </Suspense>
        </Card>
      </Col>
    </Row>
  );
}
