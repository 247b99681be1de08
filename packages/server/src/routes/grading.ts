import { api } from '@examhall/contract';
import type { FastifyInstance } from 'fastify';
import { route } from '../http/route.js';
import type { Services } from '../services/index.js';

/** Grading: set-up, the grader's queue and marks, reconciliation, progress and key corrections. */
export function gradingRoutes(app: FastifyInstance, s: Services): void {
  route(app, s, api.gradingExams, async ({ staff, query }) => s.grading.exams(staff, query));
  route(app, s, api.gradingSetup, async ({ staff, query }) => s.gradingSetup.setup(staff, query.exam_id));
  route(app, s, api.gradingSettings, async ({ staff, body }) => s.gradingSetup.saveSettings(staff, body));
  route(app, s, api.gradingAssign, async ({ staff, body }) => s.gradingSetup.assign(staff, body));
  route(app, s, api.gradingNext, async ({ staff, query }) => s.grading.next(staff, query));
  route(app, s, api.gradingItem, async ({ staff, query }) => s.grading.item(staff, query));
  route(app, s, api.gradingMark, async ({ staff, body }) => s.grading.mark(staff, body));
  route(app, s, api.gradingReconcile, async ({ staff, query }) => s.grading.reconcile(staff, query));
  route(app, s, api.gradingReconcileMark, async ({ staff, body }) => s.grading.reconcileMark(staff, body));
  route(app, s, api.gradingProgress, async ({ staff, query }) => s.grading.progress(staff, query.exam_id));
  route(app, s, api.gradingKey, async ({ staff, body }) => s.rescoring.changeKey(staff, body));
}
