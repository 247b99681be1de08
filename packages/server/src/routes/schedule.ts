import { api } from '@examhall/contract';
import type { FastifyInstance } from 'fastify';
import { route } from '../http/route.js';
import type { Services } from '../services/index.js';

/** Schedules and accommodations: slots, invitations' slot, extra time and window, reopening; the candidate's slot. */
export function scheduleRoutes(app: FastifyInstance, s: Services): void {
  route(app, s, api.scheduleSlots, async ({ staff, query }) => s.schedule.slots(staff, query.exam_id));
  route(app, s, api.scheduleSlotCreate, async ({ staff, body }) => s.schedule.createSlot(staff, body));
  route(app, s, api.scheduleSlotUpdate, async ({ staff, body }) => s.schedule.updateSlot(staff, body));
  route(app, s, api.scheduleSlotDelete, async ({ staff, body }) => s.schedule.deleteSlot(staff, body));
  route(app, s, api.scheduleSlotMode, async ({ staff, body }) => s.schedule.setSlotMode(staff, body));
  route(app, s, api.scheduleInvitations, async ({ staff, query }) => s.schedule.invitations(staff, query));
  route(app, s, api.scheduleAssignSlot, async ({ staff, body }) => s.schedule.assignSlot(staff, body));
  route(app, s, api.scheduleAccommodations, async ({ staff, body }) => s.schedule.accommodations(staff, body));
  route(app, s, api.scheduleReopen, async ({ staff, body }) => s.schedule.reopen(staff, body));
  route(app, s, api.candidateSlots, async ({ candidate, query }) =>
    s.schedule.candidateSlots(candidate, query.exam_id),
  );
  route(app, s, api.candidateChooseSlot, async ({ candidate, body }) => s.schedule.chooseSlot(candidate, body));
}
