/** Following a job the server runs (imports and other long work): polls its detail until it ends. */
import { api, type JobView } from '@examhall/contract';
import { ApiError, request } from './client.js';

/** How often a job's progress is asked for, ms. */
export const JOB_POLL_MS = 1000;

/** True for the states a job never leaves. */
export function jobEnded(job: Pick<JobView, 'state'>): boolean {
  return job.state === 'done' || job.state === 'failed' || job.state === 'cancelled';
}

/**
 * Polls a job until it ends, reporting each view on the way; answers the finished job's result, or throws the
 * job's error (its stable code, so the page words it like any call's error) when it failed or was cancelled.
 */
export async function followJob(
  jobId: number,
  onProgress: (job: JobView) => void,
  signal?: AbortSignal,
): Promise<unknown> {
  for (;;) {
    const job = await request(api.jobDetail, { query: { job_id: jobId }, ...(signal ? { signal } : {}) });
    onProgress(job);
    if (job.state === 'done') return job.result;
    if (jobEnded(job)) {
      const code = job.error?.code ?? 'job_finished';
      throw new ApiError(code as ApiError['code'], 0, job.error?.message ?? job.state);
    }
    await new Promise((resolve) => setTimeout(resolve, JOB_POLL_MS));
  }
}
