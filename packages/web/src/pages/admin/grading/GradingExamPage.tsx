import { api } from '@examhall/contract';
import { useQuery } from '@tanstack/react-query';
import { Space, Tabs } from 'antd';
import { Link, useParams } from 'react-router';
import { request } from '../../../api/client.js';
import { queryKey } from '../../../api/queryKeys.js';
import { useI18n } from '../../../i18n/index.js';
import { can, useStaffMe } from '../../../session/staff.js';
import { useDocumentTitle } from '../../../shell/useDocumentTitle.js';
import { Forbidden, LoadError, PageTitle } from '../shared/PageTitle.js';
import { GradingDesk } from './GradingDesk.js';
import { ProgressPanel } from './ProgressPanel.js';
import { ReconcilePanel } from './ReconcilePanel.js';
import { SetupPanel } from './SetupPanel.js';

/** One exam's grading: the desk (one answer at a time), reconciliation, progress and, for managers, the set-up. */
export default function GradingExamPage() {
  const { t } = useI18n();
  useDocumentTitle(t('console.grading.title'));
  const examId = Number(useParams().examId);
  const me = useStaffMe();
  const allowed = can(me.data, 'grade.read');
  const setup = useQuery({
    queryKey: queryKey(api.gradingSetup, { exam_id: examId }),
    queryFn: ({ signal }) => request(api.gradingSetup, { query: { exam_id: examId }, signal }),
    enabled: allowed && Number.isInteger(examId) && examId > 0,
  });
  if (me.data && !allowed) return <Forbidden />;
  const items = [
    ...(can(me.data, 'grade.score')
      ? [
          {
            key: 'grade',
            label: <span data-testid="grading-tab-grade">{t('console.grading.tab.grade')}</span>,
            children: <GradingDesk examId={examId} />,
          },
        ]
      : []),
    {
      key: 'reconcile',
      label: <span data-testid="grading-tab-reconcile">{t('console.grading.tab.reconcile')}</span>,
      children: <ReconcilePanel examId={examId} />,
    },
    {
      key: 'progress',
      label: <span data-testid="grading-tab-progress">{t('console.grading.tab.progress')}</span>,
      children: <ProgressPanel examId={examId} />,
    },
    ...(can(me.data, 'exam.manage') && setup.data
      ? [
          {
            key: 'setup',
            label: <span data-testid="grading-tab-setup">{t('console.grading.tab.setup')}</span>,
            children: <SetupPanel examId={examId} setup={setup.data} />,
          },
        ]
      : []),
  ];
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <PageTitle
        title={t('console.grading.title')}
        extra={
          <Space wrap>
            <Link to={`/admin/results/${examId}`} data-testid="grading-results">
              {t('console.results.open')}
            </Link>
            <Link to={`/admin/analysis/${examId}`} data-testid="grading-analysis-link">
              {t('analysis.link')}
            </Link>
            <Link to="/admin/grading">{t('console.grading.back')}</Link>
          </Space>
        }
      />
      <LoadError error={setup.error} />
      <Tabs items={items} destroyOnHidden data-testid="grading-tabs" />
    </Space>
  );
}
