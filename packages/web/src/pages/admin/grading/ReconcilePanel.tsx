import { api, type GradingItemRef, type ReconcileItem } from '@examhall/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, Drawer, Empty, Table, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { request } from '../../../api/client.js';
import { useI18n } from '../../../i18n/index.js';
import { can, useStaffMe } from '../../../session/staff.js';
import { DEFAULT_PAGE_SIZE } from '../shared/listParams.js';
import { LoadError } from '../shared/PageTitle.js';
import { AnswerView } from './AnswerView.js';
import { useMark } from './useMark.js';
import { serverPagination } from '../shared/serverPagination.js';

/** Answers whose two marks differ by more than the margin: both marks side by side, and the deciding mark. */
export function ReconcilePanel({ examId }: { examId: number }) {
  const { t } = useI18n();
  const me = useStaffMe();
  const [paging, setPaging] = useState({ page: 1, page_size: DEFAULT_PAGE_SIZE });
  const [open, setOpen] = useState<GradingItemRef | null>(null);
  const query = { exam_id: examId, ...paging };
  const list = useQuery({
    queryKey: ['admin', 'grading', 'reconcile', query],
    queryFn: ({ signal }) => request(api.gradingReconcile, { query, signal }),
    placeholderData: keepPreviousData,
  });
  const mark = useMark(examId, () => setOpen(null));
  const columns: TableColumnsType<ReconcileItem> = [
    { title: t('console.grading.answer'), key: 'answer', render: (_, r) => `#${r.attempt_id} · Q${r.order_num}` },
    ...[0, 1].map((i) => ({
      title: `${t('console.grading.marks')} ${i + 1}`,
      key: `mark-${i}`,
      render: (_: unknown, r: ReconcileItem) =>
        r.marks[i] ? `${r.marks[i].grader_name}: ${r.marks[i].total} / ${r.max}` : '–',
    })),
    { title: t('console.grading.difference'), dataIndex: 'difference' },
    {
      title: '',
      key: 'open',
      render: (_, r) =>
        can(me.data, 'grade.score') && (
          <Button onClick={() => setOpen(r)} data-testid={`reconcile-open-${r.attempt_id}-${r.question_id}`}>
            {t('console.grading.reconcileOpen')}
          </Button>
        ),
    },
  ];
  return (
    <>
      <LoadError error={list.error} />
      <div data-testid="reconcile-list">
        <Table<ReconcileItem>
          rowKey={(r) => `${r.attempt_id}-${r.question_id}`}
          columns={columns}
          dataSource={list.data?.list ?? []}
          loading={list.isPending}
          locale={{ emptyText: <Empty description={t('console.grading.reconcileEmpty')} /> }}
          pagination={{
            ...serverPagination(paging, list.data?.total, t),
            onChange: (page, page_size) => setPaging({ page, page_size }),
          }}
          scroll={{ x: true }}
        />
      </div>
      <Drawer
        open={open !== null}
        onClose={() => setOpen(null)}
        size="large"
        title={t('console.grading.reconcileTitle')}
        destroyOnHidden
      >
        {open && (
          <AnswerView
            answer={open}
            reconcile
            busy={mark.isPending}
            onMark={(m) => mark.mutate({ ref: open, mark: m, reconcile: true })}
          />
        )}
      </Drawer>
    </>
  );
}
