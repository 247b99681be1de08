import { api, type GradingExamItem } from '@examhall/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Card, Empty, Input, Progress, Space, Table, Tag, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { request } from '../../../api/client.js';
import { useI18n } from '../../../i18n/index.js';
import { can, useStaffMe } from '../../../session/staff.js';
import { useDocumentTitle } from '../../../shell/useDocumentTitle.js';
import { DEFAULT_PAGE_SIZE } from '../shared/listParams.js';
import { Forbidden, LoadError, PageTitle } from '../shared/PageTitle.js';
import { serverPagination } from '../shared/serverPagination.js';

/** The grading area's start: the exams the caller grades, with their progress, paged and searched on the server. */
export default function GradingExamsPage() {
  const { t } = useI18n();
  useDocumentTitle(t('console.grading.title'));
  const me = useStaffMe();
  const allowed = can(me.data, 'grade.read');
  const [paging, setPaging] = useState({ page: 1, page_size: DEFAULT_PAGE_SIZE });
  const [keyword, setKeyword] = useState('');
  const query = { ...paging, ...(keyword ? { keyword } : {}) };
  const list = useQuery({
    queryKey: ['admin', 'grading', 'exams', query],
    queryFn: ({ signal }) => request(api.gradingExams, { query, signal }),
    enabled: allowed,
    placeholderData: keepPreviousData,
  });
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
          onSearch={(v) => {
            setKeyword(v.trim());
            setPaging((p) => ({ ...p, page: 1 }));
          }}
          style={{ maxWidth: 320, marginBottom: 16 }}
          data-testid="grading-search"
        />
        <div data-testid="grading-exams">
          <Table<GradingExamItem>
            rowKey="exam_id"
            columns={columns}
            dataSource={list.data?.list ?? []}
            loading={list.isPending && allowed}
            locale={{ emptyText: <Empty description={t('console.grading.empty')} /> }}
            pagination={{
              ...serverPagination(paging, list.data?.total, t),
              onChange: (page, page_size) => setPaging({ page, page_size }),
            }}
            scroll={{ x: true }}
          />
        </div>
      </Card>
    </Space>
  );
}
