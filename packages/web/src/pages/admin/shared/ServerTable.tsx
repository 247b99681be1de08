import type { UseQueryResult } from '@tanstack/react-query';
import { Table, type TableColumnsType, type TableProps } from 'antd';
import { cloneElement, isValidElement, type ReactElement, type ReactNode } from 'react';
import { useI18n } from '../../../i18n/index.js';
import { MeasureSafe } from './MeasureSafe.js';
import { pagingFromTable, tableOrder, type PagingState, type SortOrder } from './listParams.js';
import { serverPagination } from './serverPagination.js';

/** One page of a list call as its answer carries it: its rows (in `list`, unless `rows` says where) and the total. */
interface ListPage<T> {
  total: number;
  list?: readonly T[];
}

/** What the table takes of the list's query (useServerList). */
type ListQueryResult<D> = Pick<UseQueryResult<D>, 'data' | 'isFetching' | 'isPlaceholderData'>;

/** The props a server-paged table sets itself from the list; every other Table prop passes through. */
type OwnProps = 'columns' | 'dataSource' | 'loading' | 'pagination' | 'onChange' | 'locale';

/**
 * A table of a list paged, sorted and filtered on the server: the rows of the page asked for, a pager with the
 * total, each sortable column showing the list's order, and the table's changes of page, size and sort handed to the
 * list's state (which the address or the component keeps). It spins while the rows shown are not yet the answer
 * to what is asked (the first page, another page, sort or filter), not while the same page is read again.
 */
export function ServerTable<T extends object, S extends string = never, D extends ListPage<T> = ListPage<T>>({
  list,
  rows,
  columns,
  state,
  sorts = [],
  defaultSort,
  empty,
  total = true,
  ...table
}: Omit<TableProps<T>, OwnProps> & {
  list: ListQueryResult<D>;
  /** Where a page's rows are, when not in its `list`. */
  rows?: (data: D) => readonly T[];
  columns: TableColumnsType<T>;
  /** The list's paging and sort. */
  state: PagingState<S>;
  /** The call's sort columns: a sortable column keyed by one shows the list's order. */
  sorts?: readonly S[];
  /** The call's order when the list names none. */
  defaultSort?: { sort: S; order: SortOrder };
  /** What the table says when the page is empty. */
  empty: ReactNode;
  /** False to leave the total out of the pager. */
  total?: boolean;
}) {
  const { t } = useI18n();
  const { paging, setPaging } = state;
  const data = list.data;
  const pagination = serverPagination(paging, data?.total, t);
  const shown = (data && (rows?.(data) ?? data.list)) ?? [];
  return (
    <Table<T>
      rowKey="id"
      {...table}
      columns={columns.map((c) =>
        c.sorter && sorts.includes(c.key as S) ? { ...c, sortOrder: tableOrder(paging, c.key as S, defaultSort) } : c,
      )}
      rowSelection={table.rowSelection && namedSelection(table.rowSelection, shown, t)}
      dataSource={shown}
      loading={list.isFetching && (data === undefined || list.isPlaceholderData)}
      pagination={total ? pagination : { ...pagination, showTotal: undefined }}
      onChange={(p, _filters, sorter) => setPaging(pagingFromTable(paging, p, sorter, sorts))}
      locale={{ emptyText: empty }}
    />
  );
}

type RowSelection<T> = NonNullable<TableProps<T>['rowSelection']>;

/**
 * Row selection whose check boxes are named in the page's language: antd names them "Select row 1" and "Select
 * all" in English whatever the locale. A row's box says which row of the page it is; the select-all box is kept
 * out of the aria-hidden row antd measures widths with (MeasureSafe).
 */
export function namedSelection<T extends object>(
  selection: RowSelection<T>,
  shown: readonly T[],
  t: ReturnType<typeof useI18n>['t'],
): RowSelection<T> {
  return {
    ...selection,
    getCheckboxProps: (row) => ({
      ...selection.getCheckboxProps?.(row),
      'aria-label': t('console.table.selectRow', { n: shown.indexOf(row) + 1 }),
    }),
    columnTitle: (checkbox: ReactNode) => (
      <MeasureSafe>
        {isValidElement(checkbox)
          ? cloneElement(checkbox as ReactElement<{ 'aria-label'?: string }>, {
              'aria-label': t('console.table.selectAll'),
            })
          : checkbox}
      </MeasureSafe>
    ),
  };
}
