import { api } from '@examhall/contract';
import type { FastifyInstance } from 'fastify';
import { route } from '../http/route.js';
import type { Services } from '../services/index.js';

/** Invitations by SMS: bulk, resend, revoke, each exam's texts and their delivery. */
export function invitationRoutes(app: FastifyInstance, s: Services): void {
  route(app, s, api.invitationsBulk, async ({ staff, body }) => s.bulkInvite.startBulk(staff, body));
  route(app, s, api.invitationsResend, async ({ staff, body }) => s.invitationChanges.resend(staff, body));
  route(app, s, api.invitationsRevoke, async ({ staff, body }) => s.invitationChanges.revoke(staff, body));
  route(app, s, api.examSms, async ({ staff, query }) => s.examSms.smsSettings(staff, query.exam_id));
  route(app, s, api.examSmsSave, async ({ staff, body }) => s.examSms.saveSmsSettings(staff, body));
  route(app, s, api.smsList, async ({ staff, query }) => s.examSms.messages(staff, query));
}
