import { api } from '@examhall/contract';
import type { FastifyInstance } from 'fastify';
import { route } from '../http/route.js';
import type { Services } from '../services/index.js';

/** Long and background jobs: the list, one job, cancel. */
export function jobRoutes(app: FastifyInstance, s: Services): void {
  route(app, s, api.jobList, async ({ staff, query }) => s.jobs.list(staff, query));
  route(app, s, api.jobDetail, async ({ staff, query }) => s.jobs.detail(staff, query.job_id));
  route(app, s, api.jobCancel, async ({ staff, body }) => s.jobs.cancel(staff, body.job_id));
}
