import { api } from '@examhall/contract';
import type { FastifyInstance } from 'fastify';
import { route } from '../http/route.js';
import type { Services } from '../services/index.js';

/** The evaluation section's own calls. */
export function cepingRoutes(app: FastifyInstance, s: Services): void {
  route(app, s, api.cepingLineOrder, async ({ query, candidate }) =>
    s.evaluationSection.card(candidate, query.exam_id),
  );
  route(app, s, api.cepingOrderList, async ({ query, candidate }) =>
    s.evaluationSection.orderList(candidate, query.exam_id),
  );
  route(app, s, api.cepingShow, async ({ query, candidate }) =>
    s.evaluationSection.show(candidate, query.exam_id, query.subject_id),
  );
  route(app, s, api.cepingShowNew, async ({ query, candidate }) =>
    s.evaluationSection.show(candidate, query.exam_id, query.subject_id),
  );
  route(app, s, api.cepingAnswer, async ({ body, candidate }) => s.evaluationSection.answer(candidate, body));
  route(app, s, api.cepingFinish, async ({ body, candidate }) => s.evaluationSection.finish(candidate, body.exam_id));
}
