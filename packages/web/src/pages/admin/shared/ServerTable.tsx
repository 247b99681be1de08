import type { UseQueryResult } from '@tanstack/react-query';
import { Table, type TableColumnsType, type TableProps } from 'antd';
import type { ReactNode } from 'react';
import { useI18n } from '../../../i18n/index.js';
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
  return (
    <Table<T>
      rowKey="id"
      {...table}
      columns={columns.map((c) =>
        c.sorter && sorts.includes(c.key as S) ? { ...c, sortOrder: tableOrder(paging, c.key as S, defaultSort) } : c,
      )}
      dataSource={(data && (rows?.(data) ?? data.list)) ?? []}
      loading={list.isFetching && (data === undefined || list.isPlaceholderData)}
      pagination={total ? pagination : { ...pagination, showTotal: undefined }}
      onChange={(p, _filters, sorter) => setPaging(pagingFromTable(paging, p, sorter, sorts))}
      locale={{ emptyText: empty }}
    />
  );
}
