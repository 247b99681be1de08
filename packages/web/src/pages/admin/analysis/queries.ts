/** The item analysis page's server data. */
import { api, type ItemAnalysisQuery } from '@examhall/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { request } from '../../../api/client.js';

/** Query key of everything on the page. */
export const ANALYSIS_KEY = ['admin', 'analysis'] as const;

/** One page of an exam version's item analysis (sorted, filtered and paged on the server) with the exam's figures. */
export function useItemAnalysis(query: ItemAnalysisQuery | null) {
  return useQuery({
    queryKey: [...ANALYSIS_KEY, query],
    queryFn: ({ signal }) => request(api.itemAnalysis, { query: query!, signal }),
    enabled: query !== null,
    placeholderData: keepPreviousData,
  });
}
