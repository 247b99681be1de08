import { WarningOutlined } from '@ant-design/icons';
import {
  BANK_SORTS,
  type BankQuestionItem,
  type BankQuestionListData,
  type BankSort,
  type BankVerificationState,
} from '@examhall/contract';
import type { UseQueryResult } from '@tanstack/react-query';
import { Button, Empty, Space, Tag, Tooltip, Typography, type TableColumnsType } from 'antd';
import { LinkButton } from '../shared/LinkButton.js';
import type { ReactNode } from 'react';
import { useI18n } from '../../../i18n/index.js';
import { kindLabel } from '../../../questions/labels.js';
import { serverTime } from '../../../shell/serverTime.js';
import type { PagingState } from '../shared/listParams.js';
import { ServerTable } from '../shared/ServerTable.js';
import { ItemFlagTag } from './FlagNotice.js';

const DEFAULT_SORT = { sort: 'updated', order: 'desc' } as const;

/** One page of questions with sorting, paging and selection for bulk actions; a row opens the editor. */
export function QuestionTable(props: {
  list: UseQueryResult<BankQuestionListData>;
  state: PagingState<BankSort>;
  selected: number[];
  onSelect: ((ids: number[]) => void) | null;
  /** Rows that cannot be selected (already taken, or not of a kind wanted), or null when all can. */
  unselectable?: (q: BankQuestionItem) => boolean;
  onOpen: (id: number) => void;
  empty: ReactNode;
}) {
  const { t, lang } = useI18n();
  const columns: TableColumnsType<BankQuestionItem> = [
    {
      title: 'ID',
      key: 'id',
      dataIndex: 'id',
      width: 70,
      sorter: true,
    },
    {
      title: t('console.bank.stem'),
      dataIndex: 'stem',
      // The rest of the row's room; two lines of the stem, all of it in the tooltip.
      render: (stem: string, q) => (
        <Space orientation="vertical" size={2}>
          <LinkButton
            className="clamp-2"
            onClick={() => props.onOpen(q.id)}
            title={stem}
            data-testid={`bank-open-${q.id}`}
          >
            {stem.trim() === '' ? t('console.bank.noStem') : stem}
          </LinkButton>
          {q.problem && (
            <Typography.Text type="danger">
              <WarningOutlined aria-hidden /> {t('console.bank.problem', { problem: q.problem })}
            </Typography.Text>
          )}
          <ItemFlagTag questionId={q.id} flags={q.flags} />
        </Space>
      ),
    },
    {
      title: t('console.bank.kind'),
      dataIndex: 'kind',
      width: 110,
      render: (kind: BankQuestionItem['kind'], q) => (
        <Space size={4} wrap>
          <Tag>{kindLabel(kind, lang)}</Tag>
          {kind === 'programming' && <VerificationTag state={q.verification} />}
        </Space>
      ),
    },
    {
      title: t('console.bank.difficulty'),
      key: 'difficulty',
      dataIndex: 'difficulty',
      width: 90,
      sorter: true,
      render: (d: number) => <DifficultyMark level={d} />,
    },
    {
      title: t('console.bank.tagsAndPoints'),
      key: 'tags',
      width: 140,
      render: (_, q) => (
        <Space size={[4, 4]} wrap>
          {q.tags.map((tag) => (
            <Tag key={`t:${tag}`} color="blue">
              {tag}
            </Tag>
          ))}
          {q.knowledge_points.map((kp) => (
            <Tag key={`k:${kp}`}>{kp}</Tag>
          ))}
        </Space>
      ),
    },
    { title: t('console.bank.score'), dataIndex: 'default_score', width: 70, responsive: ['xxl'] },
    {
      title: t('console.bank.author'),
      key: 'author',
      width: 110,
      responsive: ['xxl'],
      render: (_, q) => q.author.name,
    },
    {
      title: t('console.bank.used'),
      key: 'used',
      dataIndex: 'used_count',
      sorter: true,
      width: 80,
      responsive: ['xxl'],
    },
    {
      title: t('console.bank.updated'),
      key: 'updated',
      dataIndex: 'updated_at',
      width: 150,
      responsive: ['xxl'],
      sorter: true,
      sortDirections: ['descend', 'ascend', 'descend'],
      render: (ms: number, q) => (
        <Tooltip title={t('console.bank.lastEditor', { name: q.editor.name })}>
          <span>{serverTime(ms)}</span>
        </Tooltip>
      ),
    },
    {
      title: t('console.common.actions'),
      key: 'actions',
      width: 80,
      render: (_, q) => (
        <Button size="small" onClick={() => props.onOpen(q.id)} data-testid={`bank-edit-${q.id}`}>
          {props.onSelect ? t('console.common.edit') : t('console.bank.view')}
        </Button>
      ),
    },
  ];
  return (
    <div data-testid="bank-table">
      <ServerTable
        columns={columns}
        list={props.list}
        state={props.state}
        sorts={BANK_SORTS}
        defaultSort={DEFAULT_SORT}
        rowSelection={
          props.onSelect
            ? {
                selectedRowKeys: props.selected,
                preserveSelectedRowKeys: true,
                onChange: (keys) => props.onSelect?.(keys.map(Number)),
                getCheckboxProps: (q) => ({ disabled: props.unselectable?.(q) ?? false }),
              }
            : undefined
        }
        empty={props.empty}
      />
    </div>
  );
}

/** Difficulty 1 to 5 as five dots, named for screen readers. */
export function DifficultyMark({ level }: { level: number }) {
  const { t } = useI18n();
  const d = Math.min(5, Math.max(1, Math.round(level))) as 1 | 2 | 3 | 4 | 5;
  const name = t(`console.bank.level.${d}`);
  return (
    <span role="img" aria-label={name} title={name} style={{ letterSpacing: 1, whiteSpace: 'nowrap' }}>
      {'●'.repeat(d)}
      <Typography.Text type="secondary">{'○'.repeat(5 - d)}</Typography.Text>
    </span>
  );
}

/** Where a programming question's reference check stands. */
export function VerificationTag({ state }: { state: BankVerificationState }) {
  const { t } = useI18n();
  const color = { none: 'default', ok: 'green', failed: 'red', stale: 'orange' }[state];
  return <Tag color={color}>{t(`console.bank.verification.${state}`)}</Tag>;
}

/** The list's empty state: what to do next depends on why it is empty. */
export function QuestionsEmpty(props: {
  filtered: boolean;
  canCreate: boolean;
  onCreate: () => void;
  onClear: () => void;
}) {
  const { t } = useI18n();
  if (props.filtered) {
    return (
      <Empty description={t('console.bank.noMatch')}>
        <Button onClick={props.onClear}>{t('console.bank.clearFilters')}</Button>
      </Empty>
    );
  }
  return (
    <Empty description={props.canCreate ? t('console.bank.emptyManage') : t('console.bank.empty')}>
      {props.canCreate && (
        <Button type="primary" onClick={props.onCreate}>
          {t('console.bank.newQuestion')}
        </Button>
      )}
    </Empty>
  );
}
