/** Long and background jobs: the list, one job, cancel. */
import * as J from '../schemas/jobs.js';
import { call } from './define.js';

/** The jobs a staff member may follow: their own and their team's (an admin's: all). */
export const jobCalls = {
  jobList: call({
    method: 'GET',
    path: '/admin/jobs',
    summary:
      "Jobs (imports and other long work) with their progress, filtered, sorted and paged: one's own and one's team's",
    query: J.JobListQuery,
    body: undefined,
    data: J.JobListData,
    auth: 'staff',
    permission: 'job.read',
    // The service filters by team and owner.
    teamFree: true,
  }),
  jobDetail: call({
    method: 'GET',
    path: '/admin/jobs/detail',
    summary: 'One job: state, progress, result or error',
    query: J.JobDetailQuery,
    body: undefined,
    data: J.JobView,
    auth: 'staff',
    permission: 'job.read',
    scope: { kind: 'job', field: 'job_id' },
  }),
  jobCancel: call({
    method: 'POST',
    path: '/admin/jobs/cancel',
    summary: 'Cancel a job: a queued one at once, a running one at its next step (what it committed stays)',
    query: undefined,
    body: J.JobCancelBody,
    data: J.JobView,
    auth: 'staff',
    permission: 'job.read',
    scope: { kind: 'job', field: 'job_id' },
  }),
} as const;
