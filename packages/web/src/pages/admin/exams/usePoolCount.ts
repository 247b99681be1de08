/**
 * How many bank questions a draw rule matches, counted with the bank's list call: one call when the rule
 * names at most one folder, tag and difficulty, else the union of every combination's ids.
 */
import { api, type DrawRule } from '@examhall/contract';
import { useQuery } from '@tanstack/react-query';
import { request } from '../../../api/client.js';
import { BANK_KEY } from '../bank/queries.js';
import { poolQueries, type PoolQuery } from './draft.js';

/** Ids read per combination at most (pages of 200); a larger pool is reported as "at least". */
const IDS_PER_QUERY_MAX = 1000;

/** A draw rule's pool size as the page can count it. */
export type PoolCount =
  | { state: 'loading' }
  | { state: 'unknown' }
  | { state: 'error'; error: unknown }
  | { state: 'counted'; count: number; atLeast: boolean };

async function countPool(queries: PoolQuery[], signal: AbortSignal): Promise<{ count: number; atLeast: boolean }> {
  if (queries.length === 1) {
    const page = await request(api.bankQuestions, { query: { ...queries[0], page: 1, page_size: 1 }, signal });
    return { count: page.total, atLeast: false };
  }
  const ids = new Set<number>();
  let atLeast = false;
  for (const q of queries) {
    for (let page = 1; page * 200 <= IDS_PER_QUERY_MAX; page++) {
      const res = await request(api.bankQuestions, { query: { ...q, page, page_size: 200, sort: 'id' }, signal });
      for (const item of res.list) ids.add(item.id);
      if (page * 200 >= res.total) break;
      if ((page + 1) * 200 > IDS_PER_QUERY_MAX) atLeast = true;
    }
  }
  return { count: ids.size, atLeast };
}

/** The pool size of a rule, refetched when its folders, tags or difficulties change. */
export function usePoolCount(rule: Pick<DrawRule, 'folder_ids' | 'tags' | 'difficulty'>, enabled: boolean): PoolCount {
  const queries = poolQueries(rule);
  const q = useQuery({
    queryKey: [...BANK_KEY, 'pool', queries],
    queryFn: ({ signal }) => countPool(queries ?? [], signal),
    enabled: enabled && queries !== null,
    staleTime: 30_000,
  });
  if (!enabled || queries === null) return { state: 'unknown' };
  if (q.isError) return { state: 'error', error: q.error };
  if (!q.data) return { state: 'loading' };
  return { state: 'counted', ...q.data };
}
