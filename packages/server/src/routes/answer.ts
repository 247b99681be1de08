import { api } from '@examhall/contract';
import type { FastifyInstance } from 'fastify';
import { route, uploadRoute } from '../http/route.js';
import type { Services } from '../services/index.js';

/** Saving answers, attaching files, running and submitting code. */
export function answerRoutes(app: FastifyInstance, s: Services): void {
  route(app, s, api.answer, async ({ body, candidate }) => s.answers.save(candidate, body));
  route(app, s, api.judge, async ({ body, candidate }) => s.judge.start(candidate, body));
  route(app, s, api.judgeStatus, async ({ query, candidate }) =>
    s.judge.status(candidate, query.exam_id, query.job_id),
  );
  route(app, s, api.judgeLatest, async ({ query, candidate }) =>
    s.judge.latest(candidate, query.exam_id, query.subject_id),
  );
  uploadRoute(app, s, api.uploadAnswerFile, async ({ body, file, candidate }) =>
    s.answers.upload(candidate, body.exam_id, body.subject_id, file),
  );
}
