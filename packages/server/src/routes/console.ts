import { api } from '@examhall/contract';
import type { FastifyInstance } from 'fastify';
import { route } from '../http/route.js';
import type { Services } from '../services/index.js';

/** Teams, exam assignments, the console home and the audit log. */
export function consoleRoutes(app: FastifyInstance, s: Services): void {
  route(app, s, api.teamList, async ({ staff }) => ({ list: await s.teams.list(staff) }));
  route(app, s, api.teamCreate, async ({ staff, body }) => s.teams.create(staff, body.name));
  route(app, s, api.teamUpdate, async ({ staff, body }) => s.teams.rename(staff, body.id, body.name));
  route(app, s, api.examStaffList, async ({ staff, query }) => s.teams.examStaff(staff, query.exam_id));
  route(app, s, api.examStaffAssign, async ({ staff, body }) =>
    s.teams.assign(staff, body.exam_id, body.staff_id, body.role),
  );
  route(app, s, api.examStaffUnassign, async ({ staff, body }) => {
    await s.teams.unassign(staff, body.exam_id, body.staff_id, body.role);
    return {};
  });
  route(app, s, api.consoleHome, async ({ staff }) => s.home.home(staff));
  route(app, s, api.auditList, async ({ staff, query }) => s.audit.list(staff, query));
}
