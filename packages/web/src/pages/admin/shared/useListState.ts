import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { patchParams, readPaging, type ListPaging, type ParamValue, type PagingState } from './listParams.js';

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
  // Each page of the list is a step of the history, so the back button goes back a page.
  const setPaging = useCallback(
    (next: ListPaging<S>) => setParams((prev) => patchParams(prev, { ...next })),
    [setParams],
  );
  const table: PagingState<S> = useMemo(() => ({ paging, setPaging }), [paging, setPaging]);
  return { params, paging, setFilters, table };
}
