import {
  RANKING_SORTS,
  type RankingData,
  type RankingRow,
  enumText,
  OUTCOME_TEXTS,
  SECTION_TEXTS,
  GRADING_STATE_TEXTS,
} from '@examhall/contract';
import type { UseQueryResult } from '@tanstack/react-query';
import { Empty, Tag, type TableColumnsType } from 'antd';
import { LinkButton } from '../shared/LinkButton.js';
import type { HTMLAttributes } from 'react';
import { useI18n } from '../../../i18n/index.js';
import { serverTime } from '../../../shell/serverTime.js';
import type { PagingState } from '../shared/listParams.js';
import { ServerTable } from '../shared/ServerTable.js';
import type { RankingShape } from './statsQuery.js';

/**
 * The ranking, sorted, filtered and paged on the server; a row opens the candidate's report. A column per scored
 * section the exam has, and whether each passed only when the exam has a pass rule.
 */
export function RankingTable({
  list,
  state,
  filtered,
  shape,
  onOpen,
}: {
  list: UseQueryResult<RankingData>;
  shape: RankingShape;
  state: PagingState<(typeof RANKING_SORTS)[number]>;
  filtered: boolean;
  onOpen: (attemptId: number) => void;
}) {
  const { t, lang } = useI18n();
  const passTag = (p: boolean | null) =>
    p === null ? (
      <Tag>{enumText(OUTCOME_TEXTS, 'undecided', lang)}</Tag>
    ) : p ? (
      <Tag color="green">{enumText(OUTCOME_TEXTS, 'passed', lang)}</Tag>
    ) : (
      <Tag color="red">{enumText(OUTCOME_TEXTS, 'failed', lang)}</Tag>
    );
  const columns: TableColumnsType<RankingRow> = [
    { title: t('console.results.rank'), key: 'rank', dataIndex: 'rank', sorter: true },
    {
      title: t('console.results.candidate'),
      key: 'name',
      sorter: true,
      render: (_, r) => (
        <LinkButton onClick={() => onOpen(r.attempt_id)} data-testid={`results-open-${r.attempt_id}`}>
          {r.candidate.name || r.candidate.phone || `#${r.attempt_id}`}
          {r.candidate.name && r.candidate.phone ? ` (${r.candidate.phone})` : ''}
        </LinkButton>
      ),
    },
    {
      title: t('console.results.school'),
      key: 'school',
      sorter: true,
      render: (_, r) => r.candidate.school,
    },
    { title: t('console.results.major'), key: 'major', render: (_, r) => r.candidate.major },
    {
      title: t('console.results.total'),
      key: 'score',
      render: (_, r) => (
        <span data-testid={`results-score-${r.attempt_id}`}>
          {r.score} / {r.max_score}
        </span>
      ),
    },
    ...shape.sections.map((section) => ({
      title: enumText(SECTION_TEXTS, section, lang),
      key: section,
      render: (_: unknown, r: RankingRow) => {
        const s = r.sections.find((x) => x.section === section);
        return s ? `${s.score} / ${s.max}` : '-';
      },
    })),
    ...(shape.passRule
      ? [
          {
            title: t('console.results.passed'),
            key: 'passed',
            render: (_: unknown, r: RankingRow) => passTag(r.passed),
          },
        ]
      : []),
    {
      title: t('console.results.risk'),
      key: 'risk_count',
      sorter: true,
      render: (_, r) => (
        <span>
          {r.risk_count} {r.flagged && <Tag color="red">{t('console.results.flagged')}</Tag>}
        </span>
      ),
    },
    {
      title: t('console.results.grading'),
      key: 'grading',
      render: (_, r) =>
        r.grading === 'pending' ? (
          <Tag color="orange">{enumText(GRADING_STATE_TEXTS, 'pending', lang)}</Tag>
        ) : (
          <Tag color="blue">{enumText(GRADING_STATE_TEXTS, 'complete', lang)}</Tag>
        ),
    },
    {
      title: t('console.results.finishedAt'),
      key: 'finished_at',
      sorter: true,
      render: (_, r) => (r.finished_at === null ? '' : serverTime(r.finished_at)),
    },
  ];
  return (
    <div data-testid="results-table">
      <ServerTable
        rowKey="attempt_id"
        columns={columns}
        list={list}
        state={state}
        sorts={RANKING_SORTS}
        defaultSort={{ sort: 'rank', order: 'asc' }}
        onRow={(r) => ({ 'data-testid': `results-row-${r.attempt_id}` }) as HTMLAttributes<HTMLElement>}
        empty={<Empty description={filtered ? t('console.results.emptyFiltered') : t('console.results.empty')} />}
        scroll={{ x: true }}
      />
    </div>
  );
}
