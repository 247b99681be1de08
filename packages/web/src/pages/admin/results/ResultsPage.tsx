import { api } from '@examhall/contract';
import { Alert, Card, Space, Typography } from 'antd';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { useI18n } from '../../../i18n/index.js';
import { can, useStaffMe } from '../../../session/staff.js';
import { useDocumentTitle } from '../../../shell/useDocumentTitle.js';
import { Forbidden, LoadError, PageTitle } from '../shared/PageTitle.js';
import { useListQuery, useServerList } from '../shared/serverList.js';
import { ExportButtons } from './ExportButtons.js';
import { RankingFilters } from './RankingFilters.js';
import { RankingTable } from './RankingTable.js';
import { rangeBackwards, type RankingState } from './rankingQuery.js';
import { ReportDrawer } from './ReportDrawer.js';
import { StatsPanel } from './StatsPanel.js';
import { useResultStats, type RankingShape } from './statsQuery.js';

/** One exam's results: the figures and charts, the ranking with its filters and exports, a candidate's report. */
export default function ResultsPage() {
  const { t, lang } = useI18n();
  useDocumentTitle(t('console.results.title'));
  const examId = Number(useParams().examId);
  const me = useStaffMe();
  const allowed = can(me.data, 'grade.read');
  const { query, set, table } = useListQuery<RankingState>({ exam_id: examId });
  const [open, setOpen] = useState<number | null>(null);
  // A backwards range is shown at its field and not sent: the table keeps the last valid answer.
  const valid = !rangeBackwards(query.score_min, query.score_max) && !rangeBackwards(query.risk_min, query.risk_max);
  const ranking = useServerList(api.resultsRanking, query, {
    enabled: allowed && valid && Number.isInteger(examId) && examId > 0,
  });
  const stats = useResultStats(allowed ? examId : 0);
  const shape: RankingShape = {
    sections: stats.data?.sections.map((s) => s.section) ?? [],
    passRule: stats.data?.pass_rule ?? false,
  };
  if (me.data && !allowed) return <Forbidden />;
  const filtered = [
    query.school,
    query.major,
    query.score_min,
    query.score_max,
    query.risk_min,
    query.risk_max,
    query.flagged,
  ].some((v) => v !== undefined);
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <PageTitle
        title={t('console.results.title')}
        extra={<Link to={`/admin/grading/${examId}`}>{t('console.results.back')}</Link>}
      />
      <LoadError error={ranking.error} />
      <StatsPanel examId={examId} />
      <Card
        title={t('console.results.ranking')}
        extra={
          <Space>
            {ranking.data && (
              <Typography.Text type="secondary">
                {t('console.results.finished', { n: ranking.data.finished })}
              </Typography.Text>
            )}
            <ExportButtons query={query} lang={lang === 'zh-CN' ? 'zh' : 'en'} />
          </Space>
        }
      >
        <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
          {ranking.data?.blind && <Alert type="info" showIcon title={t('console.results.blind')} />}
          <RankingFilters query={query} sections={shape.sections} onChange={set} />
          <RankingTable list={ranking} state={table} filtered={filtered} shape={shape} onOpen={setOpen} />
        </Space>
      </Card>
      <ReportDrawer attemptId={open} passRule={shape.passRule} onClose={() => setOpen(null)} />
    </Space>
  );
}
