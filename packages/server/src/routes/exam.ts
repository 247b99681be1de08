import { api } from '@examhall/contract';
import type { FastifyInstance } from 'fastify';
import { route } from '../http/route.js';
import type { Services } from '../services/index.js';

/** The candidate's exams. */
export function examRoutes(app: FastifyInstance, services: Services): void {
  route(app, services, api.examIndex, async ({ query, candidate }) =>
    services.exams.listForCandidate(candidate, query.page, query.page_size),
  );
}
