import { api, type CallQuery, type GradingExamItem } from '@examhall/contract';
import { Card, Empty, Input, Progress, Space, Tag, type TableColumnsType } from 'antd';
import { Link } from 'react-router';
import { useI18n } from '../../../i18n/index.js';
import { can, useStaffMe } from '../../../session/staff.js';
import { useDocumentTitle } from '../../../shell/useDocumentTitle.js';
import { Forbidden, LoadError, PageTitle } from '../shared/PageTitle.js';
import { useListQuery, useServerList } from '../shared/serverList.js';
import { ServerTable } from '../shared/ServerTable.js';

/** The grading area's start: the exams the caller grades, with their progress, paged and searched on the server. */
export default function GradingExamsPage() {
  const { t } = useI18n();
  useDocumentTitle(t('console.grading.title'));
  const me = useStaffMe();
  const allowed = can(me.data, 'grade.read');
  const { query, set, table } = useListQuery<CallQuery<typeof api.gradingExams>>({});
  const list = useServerList(api.gradingExams, query, { enabled: allowed });
  if (me.data && !allowed) return <Forbidden />;

  const columns: TableColumnsType<GradingExamItem> = [
    {
      title: t('console.grading.exam'),
      dataIndex: 'name',
      render: (name: string, e) => (
        <Link to={`/admin/grading/${e.exam_id}`} data-testid={`grading-exam-${e.exam_id}`}>
          {name}
        </Link>
      ),
    },
    {
      title: t('console.grading.mode'),
      key: 'mode',
      render: (_, e) => (
        <Space size={4}>
          <Tag>{e.settings.double_marking ? t('console.grading.double') : t('console.grading.single')}</Tag>
          {e.settings.blind && <Tag color="purple">{t('console.grading.blind')}</Tag>}
        </Space>
      ),
    },
    {
      title: t('console.grading.progress'),
      key: 'progress',
      render: (_, e) => (
        <Progress
          percent={e.total === 0 ? 100 : Math.round((e.graded / e.total) * 100)}
          format={() => `${e.graded} / ${e.total}`}
          aria-label={`${t('console.grading.progress')}: ${e.name}`}
          style={{ minWidth: 160 }}
        />
      ),
    },
    { title: t('console.grading.reconcileCount'), dataIndex: 'reconcile' },
    { title: t('console.grading.mineLeft'), dataIndex: 'mine_left' },
    {
      title: t('console.results.open'),
      key: 'results',
      render: (_, e) => (
        <Link to={`/admin/results/${e.exam_id}`} data-testid={`results-exam-${e.exam_id}`}>
          {t('console.results.open')}
        </Link>
      ),
    },
  ];

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <PageTitle title={t('console.grading.title')} description={t('admin.area.grading')} />
      <LoadError error={list.error} />
      <Card title={t('console.grading.exams')}>
        <Input.Search
          allowClear
          placeholder={t('console.grading.search')}
          aria-label={t('console.grading.search')}
          onSearch={(v) => set({ keyword: v.trim() || undefined })}
          style={{ maxWidth: 320, marginBottom: 16 }}
          data-testid="grading-search"
        />
        <div data-testid="grading-exams">
          <ServerTable
            rowKey="exam_id"
            columns={columns}
            list={list}
            state={table}
            empty={<Empty description={t('console.grading.empty')} />}
            scroll={{ x: true }}
          />
        </div>
      </Card>
    </Space>
  );
}
