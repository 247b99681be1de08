import { api, type JobStartedData, type JobView } from '@examhall/contract';
import { expect } from 'vitest';
import { body, type TestApp } from './app.js';
import { multipart } from './multipart.js';

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

/**
 * Imports `gift` (a GIFT file) as `token` into a new bank folder, sending `headers` besides with the import, and
 * expects the import job to be done; answers its id.
 */
export async function giftImport(
  t: TestApp,
  token: string,
  gift: string,
  headers: Record<string, string> = {},
): Promise<number> {
  const folder = await t.app.inject({
    method: 'POST',
    url: `/api${api.bankFolderCreate.path}`,
    headers: { authorization: `Bearer ${token}` },
    payload: { name: 'Net' },
  });
  const form = multipart(
    { folder_id: String(body<{ id: number }>(folder).data.id) },
    { name: 'net.gift', type: 'application/octet-stream', data: Buffer.from(gift) },
  );
  const started = await t.app.inject({
    method: 'POST',
    url: `/api${api.bankImport.path}`,
    payload: form.payload,
    headers: { authorization: `Bearer ${token}`, ...headers, ...form.headers },
  });
  expect(started.statusCode, started.body).toBe(200);
  const jobId = body<JobStartedData>(started).data.job_id;
  expect((await waitForJob(t, token, jobId)).state).toBe('done');
  return jobId;
}
