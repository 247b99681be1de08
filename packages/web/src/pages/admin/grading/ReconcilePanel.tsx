import { api, type CallQuery, type GradingItemRef, type ReconcileItem } from '@examhall/contract';
import { Button, Drawer, Empty, type TableColumnsType } from 'antd';
import { useRef, useState } from 'react';
import { useI18n } from '../../../i18n/index.js';
import { can, useStaffMe } from '../../../session/staff.js';
import { LoadError } from '../shared/PageTitle.js';
import { useListQuery, useServerList } from '../shared/serverList.js';
import { ServerTable } from '../shared/ServerTable.js';
import { AnswerView } from './AnswerView.js';
import { useMark } from './useMark.js';

/**
 * Answers whose two marks differ by more than the margin: both marks side by side, and the deciding mark. The
 * drawer gives the focus back to the button that opened it; after a decision that row is gone, so the focus goes
 * to the next answer's button, or to the list.
 */
export function ReconcilePanel({ examId }: { examId: number }) {
  const { t } = useI18n();
  const me = useStaffMe();
  const [open, setOpen] = useState<GradingItemRef | null>(null);
  const [decided, setDecided] = useState(false);
  const listRef = useRef<HTMLDivElement>(null);
  const { query, table } = useListQuery<CallQuery<typeof api.gradingReconcile>>({ exam_id: examId });
  const list = useServerList(api.gradingReconcile, query);
  const mark = useMark(examId, () => {
    setDecided(true);
    setOpen(null);
  });
  const afterOpenChange = (visible: boolean) => {
    if (visible || !decided) return;
    setDecided(false);
    const box = listRef.current;
    (box?.querySelector<HTMLElement>('[data-testid^="reconcile-open-"]') ?? box)?.focus();
  };
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
      <div data-testid="reconcile-list" ref={listRef} tabIndex={-1}>
        <ServerTable
          rowKey={(r) => `${r.attempt_id}-${r.question_id}`}
          columns={columns}
          list={list}
          state={table}
          empty={<Empty description={t('console.grading.reconcileEmpty')} />}
          scroll={{ x: true }}
        />
      </div>
      <Drawer
        open={open !== null}
        onClose={() => setOpen(null)}
        afterOpenChange={afterOpenChange}
        focusable={{ focusTriggerAfterClose: !decided }}
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
