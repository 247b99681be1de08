import { api } from '@examhall/contract';
import type { FastifyInstance } from 'fastify';
import { route } from '../http/route.js';
import type { Services } from '../services/index.js';

/** Results analysis: the item analysis of an exam's questions. */
export function analysisRoutes(app: FastifyInstance, s: Services): void {
  route(app, s, api.itemAnalysis, async ({ staff, query }) => s.analysis.items(staff, query));
}
