import { GRID_FILTERS, GRID_SORTS, type GridFilter, type GridSort, type ProctorGridData } from '@examhall/contract';
import { Segmented, Select, Space, Typography } from 'antd';
import { useI18n } from '../../../i18n/index.js';

/** The grid's filter (with how many candidates each matches; phone lost only when the exam has the phone check) and order. */
export function GridToolbar(props: {
  filter: GridFilter;
  sort: GridSort;
  counts: ProctorGridData['counts'] | null;
  total: number;
  phoneCheck: boolean;
  onFilter: (f: GridFilter) => void;
  onSort: (s: GridSort) => void;
}) {
  const { t } = useI18n();
  return (
    <Space wrap align="center" style={{ justifyContent: 'space-between', width: '100%' }}>
      <Segmented<GridFilter>
        aria-label={t('proctor.grid.filter')}
        value={props.filter}
        onChange={props.onFilter}
        options={GRID_FILTERS.filter((f) => f !== 'phone_lost' || props.phoneCheck).map((f) => ({
          value: f,
          label: (
            <span data-testid={`grid-filter-${f}`}>{t(`proctor.grid.filter.${f}`, { n: props.counts?.[f] ?? 0 })}</span>
          ),
        }))}
      />
      <Space align="center">
        <Typography.Text type="secondary" data-testid="grid-total">
          {t('proctor.grid.total', { n: props.total })}
        </Typography.Text>
        <label htmlFor="grid-sort">{t('proctor.grid.sort')}</label>
        <Select<GridSort>
          id="grid-sort"
          value={props.sort}
          onChange={props.onSort}
          style={{ minWidth: 180 }}
          options={GRID_SORTS.map((s) => ({ value: s, label: t(`proctor.grid.sort.${s}`) }))}
          data-testid="grid-sort"
        />
      </Space>
    </Space>
  );
}
