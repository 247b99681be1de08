import {
  api,
  CANDIDATE_STATUSES,
  EXAM_CANDIDATE_SORTS,
  type CandidateStatus,
  type ExamCandidateRow,
  type ExamCandidatesData,
  type ExamCandidatesQuery,
} from '@examhall/contract';
import { useMutation } from '@tanstack/react-query';
import { Button, Dropdown, Empty, Flex, Input, Space, Tag, Typography, type TableColumnsType } from 'antd';
import { fetchFile, saveFile } from '../../../api/client.js';
import { useI18n } from '../../../i18n/index.js';
import { serverTime } from '../../../shell/serverTime.js';
import { LoadError } from '../shared/PageTitle.js';
import { useListQuery, useServerList } from '../shared/serverList.js';
import { ServerTable } from '../shared/ServerTable.js';

/** How often the list is asked for again, so statuses change on screen as candidates move on. */
export const CANDIDATES_REFRESH_MS = 5000;

/** Each status's colour, on the bar and the tags: dark enough for white text on a tag (WCAG AA, 4.5:1). */
export const STATUS_COLORS: Record<CandidateStatus, string> = {
  invited: '#595959',
  logged_in: '#0958d9',
  checks_passed: '#006d75',
  in_progress: '#ad4e00',
  submitted: '#237804',
  ended_by_proctor: '#a8071a',
  absent: '#262626',
};

/** The counts per status as one stacked bar and clickable tags that filter the table. */
function StatusBar(props: {
  data: ExamCandidatesData;
  status: CandidateStatus | undefined;
  onPick: (s: CandidateStatus | undefined) => void;
}) {
  const { t } = useI18n();
  const { counts, all } = props.data;
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <div
        role="img"
        aria-label={CANDIDATE_STATUSES.map((s) => `${t(`exam.cand.status.${s}`)} ${counts[s]}`).join(', ')}
        style={{ display: 'flex', height: 12, borderRadius: 6, overflow: 'hidden', background: '#f0f0f0' }}
      >
        {CANDIDATE_STATUSES.map((s) =>
          counts[s] > 0 ? <div key={s} style={{ flex: counts[s], background: STATUS_COLORS[s] }} /> : null,
        )}
      </div>
      <Flex wrap gap={8}>
        <Tag.CheckableTag
          checked={props.status === undefined}
          onChange={() => props.onPick(undefined)}
          data-testid="exam-cand-all"
        >
          {t('exam.cand.all', { n: all })}
        </Tag.CheckableTag>
        {CANDIDATE_STATUSES.map((s) => (
          <Tag.CheckableTag
            key={s}
            checked={props.status === s}
            onChange={(on) => props.onPick(on ? s : undefined)}
            data-testid={`exam-cand-count-${s}`}
          >
            <span style={{ color: props.status === s ? undefined : STATUS_COLORS[s] }}>●</span>{' '}
            {t(`exam.cand.status.${s}`)} {counts[s]}
          </Tag.CheckableTag>
        ))}
      </Flex>
    </Space>
  );
}

/** The table's columns. */
function useColumns(): TableColumnsType<ExamCandidateRow> {
  const { t } = useI18n();
  const time = (ms: number | null) => (ms === null ? '—' : serverTime(ms));
  return [
    { title: t('cand.col.name'), dataIndex: 'name', key: 'name', sorter: true },
    { title: t('cand.col.phone'), key: 'phone', sorter: true, render: (_, r) => `+${r.area_code} ${r.phone}` },
    { title: t('cand.col.school'), dataIndex: 'school', key: 'school', sorter: true },
    {
      title: t('exam.cand.status'),
      dataIndex: 'status',
      key: 'status',
      sorter: true,
      render: (s: CandidateStatus) => (
        <Tag color={STATUS_COLORS[s]} data-testid="exam-cand-status" data-status={s}>
          {t(`exam.cand.status.${s}`)}
        </Tag>
      ),
    },
    {
      title: t('exam.cand.sms'),
      dataIndex: 'sms',
      render: (s: ExamCandidateRow['sms']) => (s ? t(`exam.cand.sms.${s}`) : t('exam.cand.smsNone')),
    },
    { title: t('exam.cand.invitedAt'), dataIndex: 'invited_at', key: 'invited_at', sorter: true, render: time },
    { title: t('cand.col.lastLogin'), dataIndex: 'last_login_at', render: time },
    { title: t('exam.cand.startedAt'), dataIndex: 'started_at', key: 'started_at', sorter: true, render: time },
    { title: t('exam.cand.finishedAt'), dataIndex: 'finished_at', render: time },
  ];
}

/** An exam's invited candidates with their status: counts, filters, the server-paged table, export; refreshed live. */
export function ExamCandidatesPanel({ examId }: { examId: number }) {
  const { t, lang } = useI18n();
  const { query, set, table } = useListQuery<ExamCandidatesQuery>({ exam_id: examId });
  const list = useServerList(api.examCandidates, query, { refetchInterval: CANDIDATES_REFRESH_MS });
  const exporter = useMutation({
    mutationFn: async (format: 'csv' | 'xlsx') =>
      saveFile(
        await fetchFile(api.examCandidatesExport, {
          exam_id: examId,
          status: query.status,
          q: query.q,
          format,
          lang: lang === 'zh-CN' ? 'zh' : 'en',
        }),
      ),
  });
  const columns = useColumns();
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="exam-candidates">
      <Flex justify="space-between" wrap gap={8}>
        <Input.Search
          allowClear
          placeholder={t('cand.search')}
          aria-label={t('cand.search')}
          onSearch={(q) => set({ q: q || undefined })}
          style={{ width: 260 }}
        />
        <Space>
          <Typography.Text type="secondary">{t('exam.cand.live', { s: CANDIDATES_REFRESH_MS / 1000 })}</Typography.Text>
          <Dropdown
            menu={{
              items: [
                { key: 'xlsx', label: 'Excel (.xlsx)' },
                { key: 'csv', label: 'CSV' },
              ],
              onClick: ({ key }) => exporter.mutate(key as 'csv' | 'xlsx'),
            }}
          >
            <Button loading={exporter.isPending} data-testid="exam-cand-export">
              {t('exam.cand.export')}
            </Button>
          </Dropdown>
        </Space>
      </Flex>
      {list.data && <StatusBar data={list.data} status={query.status} onPick={(status) => set({ status })} />}
      <LoadError error={list.error ?? exporter.error} />
      <ServerTable
        rowKey="invitation_id"
        size="small"
        columns={columns}
        list={list}
        state={table}
        sorts={EXAM_CANDIDATE_SORTS}
        scroll={{ x: true }}
        empty={<Empty description={query.q || query.status ? t('console.common.noMatch') : t('exam.cand.empty')} />}
      />
    </Space>
  );
}
