import { api } from '@examhall/contract';
import type { FastifyInstance } from 'fastify';
import { route } from '../http/route.js';
import type { Services } from '../services/index.js';

/** The candidate's exams: list, detail, invitation, result, positions, feedback. */
export function examRoutes(app: FastifyInstance, s: Services): void {
  route(app, s, api.examIndex, async ({ query, candidate }) =>
    s.exams.listForCandidate(candidate, query.page, query.page_size),
  );
  route(app, s, api.examShow, async ({ query, candidate }) => s.exams.show(candidate, query.id, query.anid));
  route(app, s, api.anidInfo, async ({ query, candidate }) => s.exams.anidInfo(candidate, query.anid));
  route(app, s, api.examResult, async ({ query, candidate }) => s.attemptResults.resultOf(candidate, query.exam_id));
  route(app, s, api.examExplanations, async ({ query, candidate }) =>
    s.attemptResults.explanations(candidate, query.exam_id),
  );
  route(app, s, api.recommendInfo, async ({ query, candidate }) => s.exams.recommend(candidate, query.exam_id));
  route(app, s, api.feedback, async ({ body, candidate }) => s.exams.feedback(candidate, body));
}
