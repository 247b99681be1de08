/** The item analysis page's server data. */
import { api, type ItemAnalysisQuery } from '@examhall/contract';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { request } from '../../../api/client.js';
import { JOB_POLL_MS, jobEnded } from '../../../api/jobs.js';

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

/**
 * The job computing newer figures, followed while it runs; when it has finished the page's figures are asked for
 * again (the kept ones are then current).
 */
export function useAnalysisJob(jobId: number | null) {
  const queryClient = useQueryClient();
  const job = useQuery({
    queryKey: [...ANALYSIS_KEY, 'job', jobId],
    queryFn: ({ signal }) => request(api.jobDetail, { query: { job_id: jobId! }, signal }),
    enabled: jobId !== null,
    refetchInterval: (q) => (q.state.data && jobEnded(q.state.data) ? false : JOB_POLL_MS),
  });
  const done = job.data?.state === 'done';
  useEffect(() => {
    if (done) void queryClient.invalidateQueries({ queryKey: ANALYSIS_KEY, predicate: (q) => q.queryKey[2] !== 'job' });
  }, [done, queryClient]);
  return job;
}
