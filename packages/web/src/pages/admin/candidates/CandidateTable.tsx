import { CANDIDATE_SORTS, type CandidateListData, type CandidateView } from '@examhall/contract';
import type { UseQueryResult } from '@tanstack/react-query';
import { Button, Empty, Space, Tag, type TableColumnsType } from 'antd';
import { useI18n } from '../../../i18n/index.js';
import { serverTime } from '../../../shell/serverTime.js';
import type { PagingState } from '../shared/listParams.js';
import { ServerTable } from '../shared/ServerTable.js';

/** A sort column of the directory. */
type Sort = (typeof CANDIDATE_SORTS)[number];

/** One page of the directory: sorted and paged on the server; each row can be edited. */
export function CandidateTable(props: {
  list: UseQueryResult<CandidateListData>;
  state: PagingState<Sort>;
  filtered: boolean;
  canManage: boolean;
  onEdit: (c: CandidateView) => void;
}) {
  const { t } = useI18n();
  const sorted = (key: Sort) => ({ key, sorter: true });
  const columns: TableColumnsType<CandidateView> = [
    // A candidate who signed in before anyone named them has no name yet: a dash, as for a missing login.
    {
      title: t('cand.col.name'),
      dataIndex: 'name',
      render: (name: string) => name || '—',
      ...sorted('name'),
    },
    { title: t('cand.col.phone'), render: (_, c) => `+${c.area_code} ${c.phone}`, ...sorted('phone') },
    { title: t('cand.col.school'), dataIndex: 'school', ...sorted('school') },
    { title: t('cand.col.major'), dataIndex: 'major', responsive: ['xl'] },
    {
      title: t('cand.col.degree'),
      dataIndex: 'degree',
      responsive: ['xxl'],
      render: (d: CandidateView['degree']) => (d === '' ? '' : t(`profile.degree.${d}`)),
    },
    { title: t('cand.col.year'), dataIndex: 'graduation_year', ...sorted('graduation_year') },
    // Narrower windows leave out what the edit dialog shows anyway, rather than scroll sideways.
    { title: t('cand.col.email'), dataIndex: 'email', responsive: ['xxl'] },
    {
      title: t('cand.col.custom'),
      dataIndex: 'custom',
      responsive: ['xxl'],
      render: (custom: Record<string, string>) => (
        <Space size={[4, 4]} wrap>
          {Object.entries(custom).map(([k, v]) => (
            <Tag key={k}>
              {k}: {v}
            </Tag>
          ))}
        </Space>
      ),
    },
    { title: t('cand.col.invitations'), dataIndex: 'invitations' },
    {
      title: t('cand.col.lastLogin'),
      dataIndex: 'last_login_at',
      render: (ms: number | null) => (ms === null ? '—' : serverTime(ms)),
      ...sorted('last_login_at'),
    },
    ...(props.canManage
      ? [
          {
            title: t('console.common.actions'),
            key: 'actions',
            render: (_: unknown, c: CandidateView) => (
              <Button size="small" onClick={() => props.onEdit(c)} data-testid={`candidate-edit-${c.id}`}>
                {t('console.common.edit')}
              </Button>
            ),
          },
        ]
      : []),
  ];
  return (
    <ServerTable<CandidateView, Sort, CandidateListData>
      columns={columns}
      list={props.list}
      state={props.state}
      sorts={CANDIDATE_SORTS}
      defaultSort={{ sort: 'created_at', order: 'desc' }}
      scroll={{ x: true }}
      empty={<Empty description={props.filtered ? t('console.common.noMatch') : t('cand.empty')} />}
      data-testid="candidate-table"
    />
  );
}
