import { PlusOutlined } from '@ant-design/icons';
import type { EditorExamItem, EditorExamListQuery, ExamStatus } from '@examhall/contract';
import { Button, Card, Empty, Input, Segmented, Space, Tag, Tooltip, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { useI18n } from '../../../i18n/index.js';
import { can, useStaffMe } from '../../../session/staff.js';
import { serverTime } from '../../../shell/serverTime.js';
import { useDocumentTitle } from '../../../shell/useDocumentTitle.js';
import { textParam } from '../shared/listParams.js';
import { Forbidden, LoadError, PageTitle } from '../shared/PageTitle.js';
import { ServerTable } from '../shared/ServerTable.js';
import { useListState } from '../shared/useListState.js';
import { CreateExamModal } from './CreateExamModal.js';
import { ArchiveButton, CopyExamModal } from './ExamActions.js';
import { modeKey, STATUS_COLOR } from './labels.js';
import { useExamList } from './queries.js';

const SORTS = ['updated_at', 'name', 'start_at', 'id'] as const;
const DEFAULT_SORT = { sort: 'updated_at', order: 'desc' } as const;
const STATUSES: readonly ExamStatus[] = ['draft', 'published', 'archived'];

/** The exams: state, version, window and invitations, filtered, sorted and paged on the server. */
export default function ExamsPage() {
  const { t } = useI18n();
  useDocumentTitle(t('admin.menu.exams'));
  const me = useStaffMe();
  const allowed = can(me.data, 'exam.read');
  const manage = can(me.data, 'exam.manage');
  const { params, paging, setFilters, table } = useListState(SORTS);
  const status = STATUSES.find((s) => s === params.get('status'));
  const name = textParam(params, 'name');
  const query: EditorExamListQuery = { ...paging, status, name };
  const list = useExamList(query);
  const [creating, setCreating] = useState(false);
  const [copying, setCopying] = useState<EditorExamItem | null>(null);

  if (me.data && !allowed) return <Forbidden />;

  const columns: TableColumnsType<EditorExamItem> = [
    {
      title: t('console.exams.col.name'),
      key: 'name',
      dataIndex: 'name',
      sorter: true,
      render: (n: string, e) => (
        <Link to={`/admin/exams/${e.id}`} data-testid={`exam-open-${e.id}`}>
          {n}
        </Link>
      ),
    },
    {
      title: t('console.exams.col.status'),
      key: 'status',
      render: (_, e) => (
        <Space size={4} wrap>
          <Tag color={STATUS_COLOR[e.status]}>{t(`console.exams.status.${e.status}`)}</Tag>
          {e.published_version !== null && <Tag>{t('console.exams.version', { n: e.published_version })}</Tag>}
          {e.published_version !== null && e.draft_changed && e.status !== 'archived' && (
            <Tooltip title={t('console.exams.draftChangedHint')}>
              <Tag color="orange">{t('console.exams.draftChanged')}</Tag>
            </Tooltip>
          )}
        </Space>
      ),
    },
    { title: t('exams.col.mode'), dataIndex: 'mode', render: (m: number) => t(modeKey(m)) },
    {
      title: t('console.exams.col.window'),
      key: 'start_at',
      sorter: true,
      render: (_, e) => (
        <span style={{ whiteSpace: 'nowrap' }}>
          {serverTime(e.start_at)}
          <br />
          {serverTime(e.end_at)}
        </span>
      ),
    },
    { title: t('console.exams.col.invited'), dataIndex: 'invited' },
    {
      title: t('console.exams.col.updated'),
      key: 'updated_at',
      dataIndex: 'updated_at',
      sorter: true,
      sortDirections: ['descend', 'ascend', 'descend'],
      render: (ms: number) => serverTime(ms),
    },
  ];
  if (manage) {
    columns.push({
      title: t('console.common.actions'),
      key: 'actions',
      render: (_, e) => (
        <Space size={4} wrap>
          <Link to={`/admin/exams/${e.id}`}>{t('console.common.edit')}</Link>
          <Button size="small" type="link" onClick={() => setCopying(e)} data-testid={`exam-copy-${e.id}`}>
            {t('console.exams.copy')}
          </Button>
          <ArchiveButton exam={e} />
        </Space>
      ),
    });
  }

  const filtered = status !== undefined || name !== undefined;
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <PageTitle
        title={t('admin.menu.exams')}
        description={t('console.exams.about')}
        extra={
          manage && (
            <Button
              type="primary"
              icon={<PlusOutlined aria-hidden />}
              onClick={() => setCreating(true)}
              data-testid="exam-new"
            >
              {t('console.exams.new')}
            </Button>
          )
        }
      />
      <Card>
        <Space wrap style={{ marginBottom: 12 }}>
          <Segmented<string>
            value={status ?? 'all'}
            onChange={(v) => setFilters({ status: v === 'all' ? null : v })}
            options={[
              { value: 'all', label: t('console.exams.all') },
              ...STATUSES.map((s) => ({ value: s, label: t(`console.exams.status.${s}`) })),
            ]}
            aria-label={t('console.exams.col.status')}
          />
          <Input.Search
            allowClear
            defaultValue={name}
            key={name ?? ''}
            placeholder={t('console.exams.searchName')}
            aria-label={t('console.exams.searchName')}
            onSearch={(v) => setFilters({ name: v.trim() })}
            style={{ width: 240 }}
            data-testid="exam-search"
          />
        </Space>
        <LoadError error={list.error} />
        <div data-testid="exam-table">
          <ServerTable
            columns={columns}
            list={list}
            state={table}
            sorts={SORTS}
            defaultSort={DEFAULT_SORT}
            scroll={{ x: true }}
            empty={
              filtered ? (
                <Empty description={t('console.common.noMatch')}>
                  <Button onClick={() => setFilters({ status: null, name: null })}>{t('console.common.reset')}</Button>
                </Empty>
              ) : (
                <Empty description={manage ? t('console.exams.emptyManage') : t('console.exams.empty')}>
                  {manage && (
                    <Button type="primary" onClick={() => setCreating(true)}>
                      {t('console.exams.new')}
                    </Button>
                  )}
                </Empty>
              )
            }
          />
        </div>
      </Card>
      <CreateExamModal open={creating} onClose={() => setCreating(false)} />
      <CopyExamModal exam={copying} onClose={() => setCopying(null)} />
    </Space>
  );
}
