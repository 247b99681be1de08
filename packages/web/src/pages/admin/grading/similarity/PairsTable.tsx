import {
  enumText,
  PROGRAMMING_LANGUAGE_TEXTS,
  SIMILARITY_FLAG_SCORE,
  SIMILARITY_SORTS,
  type SimilarityPairsData,
  type SimilarityPairView,
  type SimilarityStatus,
} from '@examhall/contract';
import type { UseQueryResult } from '@tanstack/react-query';
import { Button, Empty, Tag, type TableColumnsType } from 'antd';
import { useI18n } from '../../../../i18n/index.js';
import type { PagingState } from '../../shared/listParams.js';
import { ServerTable } from '../../shared/ServerTable.js';
import { sideName } from './PairDrawer.js';

/** A sort column of the pair list. */
type Sort = (typeof SIMILARITY_SORTS)[number];

const STATUS_COLOURS: Record<SimilarityStatus, string> = { open: 'gold', confirmed: 'red', dismissed: 'default' };

/** One page of pairs, ranked on the server; each opens side by side. */
export function PairsTable(props: {
  list: UseQueryResult<SimilarityPairsData>;
  state: PagingState<Sort>;
  minScore: number;
  onOpen: (pair: SimilarityPairView) => void;
}) {
  const { t, lang } = useI18n();
  const sorted = (key: Sort) => ({ key, sorter: true });
  const columns: TableColumnsType<SimilarityPairView> = [
    { title: t('sim.col.pair'), render: (_, p) => `${sideName(p.a)} ↔ ${sideName(p.b)}` },
    {
      title: t('sim.col.language'),
      dataIndex: 'language',
      render: (language: SimilarityPairView['language']) => enumText(PROGRAMMING_LANGUAGE_TEXTS, language, lang),
    },
    {
      title: t('sim.col.score'),
      render: (_, p) => (
        <>
          {p.score.toFixed(2)}{' '}
          {p.score >= SIMILARITY_FLAG_SCORE && p.status === 'open' && <Tag color="orange">{t('sim.flag')}</Tag>}
        </>
      ),
      ...sorted('score'),
    },
    { title: t('sim.col.shares'), render: (_, p) => `${p.share_a.toFixed(2)} / ${p.share_b.toFixed(2)}` },
    {
      title: t('sim.col.status'),
      render: (_, p) => <Tag color={STATUS_COLOURS[p.status]}>{t(`sim.status.${p.status}`)}</Tag>,
      ...sorted('status'),
    },
    { title: t('sim.col.decidedBy'), dataIndex: 'decided_by' },
    {
      title: t('console.common.actions'),
      key: 'actions',
      render: (_, p) => (
        <Button size="small" onClick={() => props.onOpen(p)} data-testid={`similarity-open-${p.id}`}>
          {t('sim.view')}
        </Button>
      ),
    },
  ];
  return (
    <ServerTable
      columns={columns}
      list={props.list}
      state={props.state}
      sorts={SIMILARITY_SORTS}
      defaultSort={{ sort: 'score', order: 'desc' }}
      scroll={{ x: true }}
      empty={<Empty description={t('sim.empty.noPairs', { min: props.minScore.toFixed(2) })} />}
    />
  );
}
