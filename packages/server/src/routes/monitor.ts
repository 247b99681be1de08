import { api } from '@examhall/contract';
import type { FastifyInstance } from 'fastify';
import { route } from '../http/route.js';
import type { Services } from '../services/index.js';

/** The attempt: start, finish, risk records. */
export function monitorRoutes(app: FastifyInstance, s: Services): void {
  route(app, s, api.startExam, async ({ body, candidate }) => ({
    attempt: await s.attemptEntry.start(candidate, body.exam_id, body.anid, body.phase === 2),
    server_time: s.clock(),
  }));
  route(app, s, api.finishExam, async ({ body, candidate }) => s.attemptResults.submit(candidate, body.exam_id));
  route(app, s, api.recordRisk, async ({ body, candidate }) => s.risk.record(candidate, body));
}
