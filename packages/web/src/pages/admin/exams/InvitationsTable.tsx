import { type InvitationListQuery, type InvitationView, type SlotView } from '@examhall/contract';
import { Button, Empty, Select, Space, Tag, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { PhoneSearch } from '../shared/PhoneSearch.js';
import { useI18n } from '../../../i18n/index.js';
import { serverTime } from '../../../shell/serverTime.js';
import { LoadError } from '../shared/PageTitle.js';
import { useListQuery } from '../shared/serverList.js';
import { ServerTable } from '../shared/ServerTable.js';
import { InvitationSmsActions } from './InvitationSmsActions.js';
import { BulkModal, ReopenModal, type BulkKind } from './ScheduleModals.js';
import { useInvitations } from './scheduleQueries.js';

/** The columns the list sorts by (by id otherwise). */
const SORTS = ['phone', 'slot'] as const;

/** The list's query as the table holds it (a slot by its id). */
type ListQuery = InvitationListQuery & { slot?: number | 'none' };

/**
 * An exam's invitations, paged, sorted and filtered on the server, with each one's slot, extra time, own window
 * and latest attempt; selected rows get a slot, extra time or a personal window, their link texted again, or are
 * revoked; a finished attempt can be reopened.
 */
export function InvitationsTable({
  examId,
  slots,
  readOnly,
}: {
  examId: number;
  slots: SlotView[];
  readOnly: boolean;
}) {
  const { t } = useI18n();
  const { query, set, table } = useListQuery<ListQuery>({ exam_id: examId });
  const [selected, setSelected] = useState<number[]>([]);
  const [bulk, setBulk] = useState<BulkKind | null>(null);
  const [reopen, setReopen] = useState<number | null>(null);
  const list = useInvitations(query);
  const slotName = (id: number | null) => {
    const s = slots.find((x) => x.id === id);
    return s ? s.label || serverTime(s.start_at) : '—';
  };
  const columns: TableColumnsType<InvitationView> = [
    {
      title: t('console.schedule.col.phone'),
      dataIndex: 'phone',
      key: 'phone',
      sorter: true,
      render: (_, i) => (
        <>
          {i.phone}
          {i.revoked_at !== null && (
            <Tag color="red" style={{ marginLeft: 4 }} data-testid="invitation-revoked">
              {t('console.invitations.revokedTag')}
            </Tag>
          )}
        </>
      ),
    },
    { title: t('console.schedule.col.slot'), key: 'slot', sorter: true, render: (_, i) => slotName(i.slot_id) },
    {
      title: t('console.schedule.col.extra'),
      key: 'extra',
      render: (_, i) =>
        i.extra_mode === 'percent'
          ? t('console.schedule.extraPercent', { p: i.extra_value, n: i.extra_minutes })
          : t('console.schedule.extraMinutes', { n: i.extra_minutes }),
    },
    {
      title: t('console.schedule.col.window'),
      key: 'window',
      render: (_, i) => (
        <>
          {t('exams.windowRange', { from: serverTime(i.effective_start), to: serverTime(i.effective_end) })}
          {i.window_start !== null && <Tag style={{ marginLeft: 4 }}>{t('console.schedule.personal')}</Tag>}
        </>
      ),
    },
    {
      title: t('console.schedule.col.attempt'),
      key: 'attempt',
      render: (_, i) =>
        i.attempt ? (
          <Space size={4}>
            <Tag>{t(`console.schedule.phase.${i.attempt.phase as 1 | 2 | 3}`)}</Tag>
            {i.attempt.phase === 3 && !readOnly && (
              <Button size="small" onClick={() => setReopen(i.attempt!.id)} data-testid="attempt-reopen">
                {t('console.schedule.reopen')}
              </Button>
            )}
          </Space>
        ) : (
          <Typography.Text type="secondary">{t('console.schedule.notStarted')}</Typography.Text>
        ),
    },
  ];
  if (!readOnly)
    columns.push({
      title: t('console.common.actions'),
      key: 'actions',
      render: (_, i) =>
        i.revoked_at === null && (
          <Space size={4}>
            <InvitationSmsActions examId={examId} anids={[i.id]} size="small" testId="row" />
          </Space>
        ),
    });
  if (list.isError) return <LoadError error={list.error} />;
  return (
    <Space orientation="vertical" style={{ width: '100%' }} data-testid="schedule-invitations">
      <Typography.Title level={3} style={{ fontSize: 16, margin: 0 }}>
        {t('console.schedule.invitations')}
      </Typography.Title>
      <Space wrap>
        <PhoneSearch
          label={t('console.schedule.filterPhone')}
          onSearch={(phone) => set({ phone })}
          testId="invitations-phone"
        />
        <Select
          style={{ width: 180 }}
          aria-label={t('console.schedule.filterSlot')}
          value={query.slot === 'none' ? 0 : (query.slot ?? -1)}
          onChange={(v: number) => set({ slot: v === -1 ? undefined : v === 0 ? 'none' : v })}
          options={[
            { value: -1, label: t('console.schedule.anySlot') },
            { value: 0, label: t('console.schedule.noSlot') },
            ...slots.map((s) => ({ value: s.id, label: s.label || serverTime(s.start_at) })),
          ]}
        />
      </Space>
      {!readOnly && (
        <Space wrap>
          <Typography.Text>{t('console.schedule.selected', { n: selected.length })}</Typography.Text>
          {(['slot', 'extra', 'window'] as const).map((kind) => (
            <Button
              key={kind}
              disabled={selected.length === 0 || (kind === 'slot' && slots.length === 0)}
              onClick={() => setBulk(kind)}
              data-testid={`invitations-${kind}`}
            >
              {t(BULK_LABEL[kind])}
            </Button>
          ))}
          <InvitationSmsActions examId={examId} anids={selected} onDone={() => setSelected([])} />
        </Space>
      )}
      <ServerTable
        size="small"
        columns={columns}
        list={list}
        state={table}
        sorts={SORTS}
        total={false}
        rowSelection={
          readOnly ? undefined : { selectedRowKeys: selected, onChange: (keys) => setSelected(keys as number[]) }
        }
        empty={<Empty description={t('console.schedule.noInvitations')} />}
      />
      {bulk && <BulkModal kind={bulk} examId={examId} ids={selected} slots={slots} onClose={() => setBulk(null)} />}
      {reopen !== null && <ReopenModal attemptId={reopen} onClose={() => setReopen(null)} />}
    </Space>
  );
}

const BULK_LABEL = {
  slot: 'console.schedule.setSlot',
  extra: 'console.schedule.setExtra',
  window: 'console.schedule.setWindow',
} as const;
