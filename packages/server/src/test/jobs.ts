import { api, type JobView } from '@examhall/contract';
import { body, type TestApp } from './app.js';

/** Follows a job through GET /admin/jobs/detail until it ends (done, failed or cancelled); answers it. */
export async function waitForJob(t: TestApp, token: string, jobId: number, timeoutMs = 20_000): Promise<JobView> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api${api.jobDetail.path}`,
      query: { job_id: String(jobId) },
      headers: { authorization: `Bearer ${token}` },
    });
    if (res.statusCode !== 200) throw new Error(`job ${jobId}: ${res.statusCode} ${res.body}`);
    const job = body<JobView>(res).data;
    if (job.state === 'done' || job.state === 'failed' || job.state === 'cancelled') return job;
    if (Date.now() > until) throw new Error(`job ${jobId} still ${job.state} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
