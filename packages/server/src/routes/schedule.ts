import { api } from '@examhall/contract';
import type { FastifyInstance } from 'fastify';
import { route } from '../http/route.js';
import type { Services } from '../services/index.js';

/** Schedules and accommodations: slots, invitations' slot, extra time and window, reopening; the candidate's slot. */
export function scheduleRoutes(app: FastifyInstance, s: Services): void {
  route(app, s, api.scheduleSlots, async ({ staff, query }) => s.slots.slots(staff, query.exam_id));
  route(app, s, api.scheduleSlotCreate, async ({ staff, body }) => s.slots.createSlot(staff, body));
  route(app, s, api.scheduleSlotUpdate, async ({ staff, body }) => s.slots.updateSlot(staff, body));
  route(app, s, api.scheduleSlotDelete, async ({ staff, body }) => s.slots.deleteSlot(staff, body));
  route(app, s, api.scheduleSlotMode, async ({ staff, body }) => s.slots.setSlotMode(staff, body));
  route(app, s, api.scheduleInvitations, async ({ staff, query }) => s.accommodations.invitations(staff, query));
  route(app, s, api.scheduleAssignSlot, async ({ staff, body }) => s.accommodations.assignSlot(staff, body));
  route(app, s, api.scheduleAccommodations, async ({ staff, body }) => s.accommodations.accommodations(staff, body));
  route(app, s, api.scheduleReopen, async ({ staff, body }) => s.reopen.reopen(staff, body));
  route(app, s, api.candidateSlots, async ({ candidate, query }) =>
    s.slotChoice.candidateSlots(candidate, query.exam_id),
  );
  route(app, s, api.candidateChooseSlot, async ({ candidate, body }) => s.slotChoice.chooseSlot(candidate, body));
}
