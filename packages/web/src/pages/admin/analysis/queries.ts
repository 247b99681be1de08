/** The item analysis page's server data. */
import { api, type ItemAnalysisQuery } from '@examhall/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { request } from '../../../api/client.js';
import { JOB_POLL_MS, jobEnded } from '../../../api/jobs.js';
import { queryKey } from '../../../api/queryKeys.js';
import { useServerList } from '../shared/serverList.js';

/** One page of an exam version's item analysis (sorted, filtered and paged on the server) with the exam's figures. */
export function useItemAnalysis(query: ItemAnalysisQuery | null) {
  return useServerList(api.itemAnalysis, query);
}

/**
 * The job computing newer figures, followed while it runs; when it has finished the page's figures are asked for
 * again (the kept ones are then current).
 */
export function useAnalysisJob(jobId: number | null) {
  const queryClient = useQueryClient();
  const query = { job_id: jobId! };
  const job = useQuery({
    queryKey: queryKey(api.jobDetail, query),
    queryFn: ({ signal }) => request(api.jobDetail, { query, signal }),
    enabled: jobId !== null,
    refetchInterval: (q) => (q.state.data && jobEnded(q.state.data) ? false : JOB_POLL_MS),
  });
  const done = job.data?.state === 'done';
  useEffect(() => {
    if (done) void queryClient.invalidateQueries({ queryKey: queryKey(api.itemAnalysis) });
  }, [done, queryClient]);
  return job;
}
