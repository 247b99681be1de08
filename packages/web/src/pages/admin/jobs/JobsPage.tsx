import {
  api,
  JOB_KINDS,
  JOB_SORTS,
  JOB_STATES,
  type JobListQuery,
  type JobView,
  enumText,
  JOB_KIND_TEXTS,
  JOB_STATE_TEXTS,
} from '@examhall/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Empty, Select, Space, Tag, Typography, type TableColumnsType } from 'antd';
import { useMemo } from 'react';
import { errorText, request } from '../../../api/client.js';
import { jobEnded } from '../../../api/jobs.js';
import { queryKey } from '../../../api/queryKeys.js';
import { useI18n } from '../../../i18n/index.js';
import { can, useStaffMe } from '../../../session/staff.js';
import { serverTime } from '../../../shell/serverTime.js';
import { useDocumentTitle } from '../../../shell/useDocumentTitle.js';
import { textParam } from '../shared/listParams.js';
import { Forbidden, LoadError, PageTitle } from '../shared/PageTitle.js';
import { useServerList } from '../shared/serverList.js';
import { ServerTable } from '../shared/ServerTable.js';
import { useListState } from '../shared/useListState.js';
import { JobProgress } from './JobProgress.js';

const DEFAULT_SORT = { sort: 'created', order: 'desc' } as const;
/** How often the list is read again while a job on it is in progress, ms. */
const LIVE_MS = 1_000;

const STATE_COLORS: Record<JobView['state'], string> = {
  queued: 'default',
  running: 'processing',
  done: 'success',
  failed: 'error',
  cancelled: 'warning',
};

/** Jobs (imports and other long work) with their live progress: one's own and one's team's, filtered and paged on the server. */
export default function JobsPage() {
  const { t, lang } = useI18n();
  useDocumentTitle(t('admin.menu.jobs'));
  const me = useStaffMe();
  const allowed = can(me.data, 'job.read');
  const { params, paging, setFilters, table } = useListState(JOB_SORTS);
  const kind = JOB_KINDS.find((k) => k === textParam(params, 'kind'));
  const state = JOB_STATES.find((s) => s === textParam(params, 'state'));
  const query: JobListQuery = { ...paging, ...(kind ? { kind } : {}), ...(state ? { state } : {}) };
  const list = useServerList(api.jobList, query, {
    enabled: allowed,
    // Live while something on the page is still going.
    refetchInterval: (data) => (data?.list.some((j) => !jobEnded(j)) ? LIVE_MS : false),
  });
  const columns = useColumns();
  if (me.data && !allowed) return <Forbidden />;
  const filtered = kind !== undefined || state !== undefined;

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <PageTitle title={t('admin.menu.jobs')} description={t('admin.area.jobs')} />
      <Card>
        <Space wrap style={{ marginBottom: 16 }}>
          <Select
            allowClear
            style={{ minWidth: 180 }}
            placeholder={t('console.jobs.kind')}
            aria-label={t('console.jobs.kind')}
            value={kind}
            onChange={(v?: string) => setFilters({ kind: v })}
            options={JOB_KINDS.map((k) => ({ value: k, label: enumText(JOB_KIND_TEXTS, k, lang) }))}
            data-testid="jobs-kind"
          />
          <Select
            allowClear
            style={{ minWidth: 160 }}
            placeholder={t('console.jobs.state')}
            aria-label={t('console.jobs.state')}
            value={state}
            onChange={(v?: string) => setFilters({ state: v })}
            options={JOB_STATES.map((s) => ({ value: s, label: enumText(JOB_STATE_TEXTS, s, lang) }))}
            data-testid="jobs-state"
          />
        </Space>
        <LoadError error={list.error} />
        <div data-testid="jobs-table">
          <ServerTable
            columns={columns}
            list={list}
            state={table}
            sorts={JOB_SORTS}
            defaultSort={DEFAULT_SORT}
            scroll={{ x: true }}
            empty={<Empty description={filtered ? t('console.jobs.noMatch') : t('console.jobs.empty')} />}
          />
        </div>
      </Card>
    </Space>
  );
}

function useColumns(): TableColumnsType<JobView> {
  const { t, lang } = useI18n();
  return useMemo(
    () => [
      {
        title: t('console.jobs.created'),
        key: 'created',
        dataIndex: 'created_at',
        sorter: true,
        sortDirections: ['descend', 'ascend', 'descend'],
        render: (ms: number) => serverTime(ms),
      },
      {
        title: t('console.jobs.kind'),
        key: 'kind',
        dataIndex: 'kind',
        sorter: true,
        render: (_: unknown, j: JobView) => (
          <Space orientation="vertical" size={0}>
            <span>{enumText(JOB_KIND_TEXTS, j.kind, lang)}</span>
            <Typography.Text type="secondary">{j.title}</Typography.Text>
          </Space>
        ),
      },
      {
        title: t('console.jobs.state'),
        key: 'state',
        dataIndex: 'state',
        sorter: true,
        render: (_: unknown, j: JobView) => (
          <Tag color={STATE_COLORS[j.state]}>{enumText(JOB_STATE_TEXTS, j.state, lang)}</Tag>
        ),
      },
      {
        title: t('console.jobs.progress'),
        key: 'progress',
        render: (_: unknown, j: JobView) => <JobOutcome job={j} />,
      },
      { title: t('console.jobs.owner'), key: 'owner', dataIndex: 'owner_name' },
      {
        title: '',
        key: 'actions',
        render: (_: unknown, j: JobView) => (jobEnded(j) ? null : <CancelButton job={j} />),
      },
    ],
    [t, lang],
  );
}

/** Progress while a job runs; its error or result when it ended. */
function JobOutcome({ job }: { job: JobView }) {
  const { t } = useI18n();
  if (job.state === 'failed' && job.error) return <Typography.Text type="danger">{job.error.message}</Typography.Text>;
  if (job.state === 'done' && job.kind === 'bank_import') {
    const r = job.result as { question_ids?: unknown[] } | null;
    return <span>{t('console.import.done', { n: r?.question_ids?.length ?? 0 })}</span>;
  }
  if (job.state === 'cancelled') return null;
  return <JobProgress job={job} />;
}

/** Asks a job to stop. */
function CancelButton({ job }: { job: JobView }) {
  const { t } = useI18n();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const cancel = useMutation({
    mutationFn: () => request(api.jobCancel, { body: { job_id: job.id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKey(api.jobList) }),
    onError: (err) => void message.error(errorText(err)),
  });
  return (
    <Button
      size="small"
      danger
      disabled={job.cancel_requested}
      loading={cancel.isPending}
      onClick={() => cancel.mutate()}
    >
      {job.cancel_requested ? t('console.jobs.cancelling') : t('console.jobs.cancel')}
    </Button>
  );
}
