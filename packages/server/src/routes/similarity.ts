import { api } from '@examhall/contract';
import type { FastifyInstance } from 'fastify';
import { route } from '../http/route.js';
import type { Services } from '../services/index.js';

/** Code similarity in the grading area: questions, computing pairs (a job), the ranked list, one pair, decisions. */
export function similarityRoutes(app: FastifyInstance, s: Services): void {
  route(app, s, api.similarityQuestions, async ({ staff, query }) => s.similarity.questions(staff, query.exam_id));
  route(app, s, api.similarityRun, async ({ staff, body }) => s.similarity.start(staff, body));
  route(app, s, api.similarityPairs, async ({ staff, query }) => s.similarity.pairs(staff, query));
  route(app, s, api.similarityPair, async ({ staff, query }) => s.similarity.pair(staff, query));
  route(app, s, api.similarityDecide, async ({ staff, body }) => s.similarity.decide(staff, body));
}
