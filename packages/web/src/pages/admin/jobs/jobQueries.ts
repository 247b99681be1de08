import { api, type JobView } from '@examhall/contract';
import { request } from '../../../api/client.js';

/** True once a job will change no more. */
export function jobEnded(job: Pick<JobView, 'state'>): boolean {
  return job.state === 'done' || job.state === 'failed' || job.state === 'cancelled';
}

/** How often a job in progress is looked at again, ms. */
export const JOB_POLL_MS = 500;

/** Follows a job until it ends, reporting each state seen; answers the ended job. */
export async function followJob(jobId: number, onUpdate?: (job: JobView) => void): Promise<JobView> {
  for (;;) {
    const job = await request(api.jobDetail, { query: { job_id: jobId } });
    onUpdate?.(job);
    if (jobEnded(job)) return job;
    await new Promise((resolve) => setTimeout(resolve, JOB_POLL_MS));
  }
}
