import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import {
  patchParams,
  readPaging,
  sortFromTable,
  type ListPaging,
  type ParamValue,
  type TableSort,
} from './listParams.js';

/**
 * A server-paged list's state in the page address: paging and sort read from it, and setters that write
 * filters (back to page 1) and the table's changes (page, size, sort) into it.
 */
export function useListState<S extends string>(sorts: readonly S[]) {
  const [params, setParams] = useSearchParams();
  const paging: ListPaging<S> = useMemo(() => readPaging(params, sorts), [params, sorts]);
  const setFilters = useCallback(
    (patch: Readonly<Record<string, ParamValue>>) => setParams((prev) => patchParams(prev, patch), { replace: true }),
    [setParams],
  );
  const onTableChange = useCallback(
    (pagination: { current?: number; pageSize?: number }, sorter: TableSort | readonly TableSort[]) => {
      const { sort, order } = sortFromTable(sorter, sorts);
      setParams((prev) => {
        const sortChanged = (prev.get('sort') ?? undefined) !== sort || (prev.get('order') ?? undefined) !== order;
        const sizeChanged = String(pagination.pageSize ?? '') !== (prev.get('page_size') ?? String(paging.page_size));
        return patchParams(prev, {
          sort,
          order,
          page_size: pagination.pageSize,
          page: sortChanged || sizeChanged ? 1 : pagination.current,
        });
      });
    },
    [setParams, sorts, paging.page_size],
  );
  return { params, paging, setFilters, onTableChange };
}
