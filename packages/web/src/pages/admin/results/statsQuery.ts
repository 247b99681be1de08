import { api, type ResultStatsData } from '@examhall/contract';
import { useQuery } from '@tanstack/react-query';
import { request } from '../../../api/client.js';
import { queryKey } from '../../../api/queryKeys.js';

/** The exam's figures (one request, shared by the figures and the ranking). */
export function useResultStats(examId: number) {
  return useQuery({
    queryKey: queryKey(api.resultsStats, { exam_id: examId }),
    queryFn: ({ signal }) => request(api.resultsStats, { query: { exam_id: examId }, signal }),
    enabled: Number.isInteger(examId) && examId > 0,
  });
}

/** A section scored into points: linetest or major. */
export type GradedSection = ResultStatsData['sections'][number]['section'];

/** What the ranking shows of the exam: the scored sections it has and whether it has a pass rule. */
export interface RankingShape {
  sections: readonly GradedSection[];
  passRule: boolean;
}
