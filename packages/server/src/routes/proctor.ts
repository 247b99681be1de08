import { api } from '@examhall/contract';
import type { FastifyInstance } from 'fastify';
import { route, streamRoute, uploadRoute } from '../http/route.js';
import { followAttempt, watchExam } from '../proctoring/live.js';
import type { Services } from '../services/index.js';

/** The proctor console, the candidate's live stream and the candidate's integrity log. */
export function proctorRoutes(app: FastifyInstance, s: Services): void {
  const lateTimers = new Set<NodeJS.Timeout>();
  route(app, s, api.proctorExams, async ({ staff }) => s.proctor.exams(staff));
  route(app, s, api.proctorGrid, async ({ staff, query }) => s.proctor.grid(staff, query));
  route(app, s, api.proctorAttempt, async ({ staff, query }) => s.proctor.attempt(staff, query.attempt_id));
  route(app, s, api.proctorWarn, async ({ staff, body }) => s.proctor.warn(staff, body.attempt_id, body.text));
  route(app, s, api.proctorEnd, async ({ staff, body }) => s.proctor.end(staff, body.attempt_id, body.reason));
  route(app, s, api.proctorDecide, async ({ staff, body }) =>
    s.proctor.decide(staff, body.record_id, {
      decision: body.decision,
      decision_note: body.note,
      candidate_note: body.candidate_note,
    }),
  );
  uploadRoute(app, s, api.proctorIdPhoto, async ({ staff, body, file }) => {
    const { exam_id: examId, attempt_id: attemptId, phone, area_code: areaCode } = body;
    const target = attemptId !== undefined ? { examId, attemptId } : { examId, phone: phone!, areaCode };
    return s.faceCheck.setIdPhoto(staff, target, file.data);
  });
  route(app, s, api.warningRead, async ({ candidate, body }) =>
    s.proctor.warningRead(candidate, body.exam_id, body.warning_id),
  );
  route(app, s, api.integrityLog, async ({ candidate, query }) => s.proctor.integrityLog(candidate, query.exam_id));

  streamRoute(app, s, api.proctorStream, async ({ staff, query, request }) => {
    await s.proctor.openStream(staff, query.exam_id);
    return (stream) => watchExam(s, request.log, query.exam_id, stream);
  });
  streamRoute(app, s, api.candidateEvents, async ({ candidate, query, request }) => {
    const attempt = await s.proctor.candidateAttempt(candidate, query.exam_id);
    return (stream) => followAttempt(s, request.log, attempt, stream, lateTimers);
  });

  app.addHook('onClose', async () => {
    for (const t of lateTimers) clearTimeout(t);
    lateTimers.clear();
  });
}
