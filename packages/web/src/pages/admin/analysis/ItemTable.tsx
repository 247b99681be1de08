import {
  ITEM_ANALYSIS_SORTS,
  type ItemAnalysisData,
  type ItemAnalysisItem,
  type ItemAnalysisSort,
  enumText,
  SECTION_TEXTS,
} from '@examhall/contract';
import type { UseQueryResult } from '@tanstack/react-query';
import { Empty, Space, Tag, Tooltip, Typography, type TableColumnsType } from 'antd';
import { useI18n } from '../../../i18n/index.js';
import type { PagingState } from '../shared/listParams.js';
import { ServerTable } from '../shared/ServerTable.js';
import { FigureTitle } from './FigureTitle.js';
import { figure } from './figures.js';
import { OptionBars } from './OptionBars.js';

/** Background of a flagged row (AA contrast with the table's text). */
const FLAGGED_ROW = '#fff1e6';

/** One page of questions with every figure, sorted and paged on the server; flagged rows highlighted. */
export function ItemTable(props: { list: UseQueryResult<ItemAnalysisData>; state: PagingState<ItemAnalysisSort> }) {
  const { t, lang } = useI18n();
  const sorted = (key: ItemAnalysisSort) => ({ key, sorter: true });
  const figureColumn = (key: 'facility' | 'sd' | 'item_rest' | 'upper_lower', title: string, definition: string) => ({
    title: <FigureTitle title={title} definition={definition} />,
    align: 'right' as const,
    render: (_: unknown, q: ItemAnalysisItem) => (
      <span style={{ fontVariantNumeric: 'tabular-nums' }} data-testid={`analysis-${key}-${q.number}`}>
        {figure(q[key])}
      </span>
    ),
    ...sorted(key),
  });
  const columns: TableColumnsType<ItemAnalysisItem> = [
    { title: t('analysis.col.number'), dataIndex: 'number', width: 64, ...sorted('number') },
    {
      title: t('analysis.col.question'),
      render: (_, q) => (
        <Space orientation="vertical" size={2}>
          {/* One line, the whole stem in the tooltip: eight columns of figures share the row at 1280 px. */}
          <Typography.Text ellipsis={{ tooltip: q.title }} style={{ maxWidth: 180 }}>
            {q.title || t('analysis.none')}
          </Typography.Text>
          <Space size={4} wrap>
            <Tag>{enumText(SECTION_TEXTS, q.section, lang)}</Tag>
            <Tag>{t('analysis.points', { n: q.max })}</Tag>
            {q.flagged && (
              <Tooltip title={t('analysis.flag.hint')}>
                <Tag color="volcano" data-testid={`analysis-flag-${q.number}`}>
                  {t('analysis.flag')}
                </Tag>
              </Tooltip>
            )}
          </Space>
        </Space>
      ),
    },
    {
      title: <FigureTitle title={t('analysis.col.n')} definition={t('analysis.def.n')} />,
      align: 'right',
      render: (_, q) => (
        <Space orientation="vertical" size={0} align="end">
          <span>{q.n}</span>
          {q.pending > 0 && (
            <Typography.Text type="secondary">{t('analysis.pending', { n: q.pending })}</Typography.Text>
          )}
        </Space>
      ),
      ...sorted('n'),
    },
    figureColumn('facility', t('analysis.col.facility'), t('analysis.def.facility')),
    figureColumn('sd', t('analysis.col.sd'), t('analysis.def.sd')),
    figureColumn('item_rest', t('analysis.col.itemRest'), t('analysis.def.itemRest')),
    figureColumn('upper_lower', t('analysis.col.upperLower'), t('analysis.def.upperLower')),
    {
      title: <FigureTitle title={t('analysis.col.options')} definition={t('analysis.def.options')} />,
      render: (_, q) => <OptionBars shares={q.option_shares} />,
    },
  ];
  return (
    <div data-testid="analysis-table">
      <ServerTable
        rowKey="question_id"
        columns={columns}
        list={props.list}
        rows={(data) => data.items}
        state={props.state}
        sorts={ITEM_ANALYSIS_SORTS}
        defaultSort={{ sort: 'number', order: 'asc' }}
        scroll={{ x: true }}
        onRow={(q) =>
          ({
            'data-testid': `analysis-row-${q.number}`,
            'data-flagged': q.flagged ? 'true' : 'false',
            style: q.flagged ? { background: FLAGGED_ROW } : undefined,
          }) as Record<string, unknown>
        }
        empty={<Empty description={t('analysis.empty.noMatch')} />}
      />
    </div>
  );
}
