/** The data side of the console's server-paged lists: one page of a list call, and a list's query kept in a panel. */
import type { CallData, CallDef, CallQuery } from '@examhall/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { request } from '../../../api/client.js';
import { queryKey } from '../../../api/queryKeys.js';
import { DEFAULT_PAGE_SIZE, type ListPaging, type PagingState } from './listParams.js';

/** How often a list is read again: every so many ms, or as its last answer says (false: not again). */
type Refetch<C extends CallDef> = number | ((data: CallData<C> | undefined) => number | false);

/**
 * One page of a list call under its catalogue key (`queryKey`), so an invalidation of the call reaches every page of
 * it; the previous page stays on screen while the next loads. A null query is not asked (yet).
 */
export function useServerList<C extends CallDef>(
  call: C,
  query: CallQuery<C> | null,
  options: { enabled?: boolean; refetchInterval?: Refetch<C> } = {},
) {
  const { enabled = true, refetchInterval } = options;
  // `request` types its input per call; for a call not known here, its query is the one input.
  const ask = request as (c: C, input: { query: CallQuery<C>; signal: AbortSignal }) => Promise<CallData<C>>;
  return useQuery({
    queryKey: queryKey(call, query ?? undefined),
    queryFn: ({ signal }) => ask(call, { query: query!, signal }),
    enabled: enabled && query !== null,
    placeholderData: keepPreviousData,
    refetchInterval:
      typeof refetchInterval === 'function' ? (q) => refetchInterval(q.state.data as CallData<C>) : refetchInterval,
  });
}

/** The sort columns a list query takes. */
type SortOf<Q> = Q extends { sort?: infer S } ? Extract<S, string> : never;

/**
 * A list's query kept in the component (a panel of a page, whose address is the page's): the first page of the
 * usual size to start with; a changed filter goes back to page 1, the table changes page, size and sort.
 */
export function useListQuery<Q extends object>(initial: Omit<Q, 'page' | 'page_size'>) {
  const [query, setQuery] = useState(
    () =>
      ({ page: 1, page_size: DEFAULT_PAGE_SIZE, sort: undefined, order: undefined, ...initial }) as Q &
        ListPaging<SortOf<Q>>,
  );
  const set = useCallback((patch: Partial<Q>) => setQuery((q) => ({ ...q, ...patch, page: 1 })), []);
  const setPaging = useCallback((next: ListPaging<SortOf<Q>>) => setQuery((q) => ({ ...q, ...next })), []);
  const table: PagingState<SortOf<Q>> = useMemo(
    () => ({
      paging: { page: query.page, page_size: query.page_size, sort: query.sort, order: query.order },
      setPaging,
    }),
    [query.page, query.page_size, query.sort, query.order, setPaging],
  );
  return { query, set, table };
}
