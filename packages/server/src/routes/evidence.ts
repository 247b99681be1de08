import { api } from '@examhall/contract';
import type { FastifyInstance } from 'fastify';
import { route } from '../http/route.js';
import type { Services } from '../services/index.js';

/** Evidence: upload credentials, captures, checks, monitor data, the phone page and evidence verification. */
export function evidenceRoutes(app: FastifyInstance, s: Services): void {
  route(app, s, api.stsToken, async ({ query, candidate }) => s.evidence.stsToken(candidate, query.exam_id));
  route(app, s, api.firstPicture, async ({ body, candidate }) => s.evidence.firstPicture(candidate, body));
  route(app, s, api.capture, async ({ body, candidate }) => s.evidence.capture(candidate, body));
  route(app, s, api.check, async ({ body, candidate }) => s.checks.record(candidate, body));
  route(app, s, api.monitorState, async ({ query, candidate }) => s.evidence.state(candidate, query.exam_id));
  route(app, s, api.fastRecordRisk, async ({ body, candidate }) => {
    const saved = await s.risk.record(candidate, body);
    return { id: saved.id, hash: saved.hash };
  });
  route(app, s, api.pertinentMoment, async ({ body, candidate }) => s.evidence.pertinent(candidate, body));
  route(app, s, api.byte, async ({ body, candidate }) => s.evidence.byte(candidate, body));
  route(app, s, api.wxUrlLink, async ({ query, candidate }) => s.phone.link(candidate, query.exam_id, query.anid));
  route(app, s, api.miniQrcode, async ({ query, candidate }) => s.phone.qr(candidate, query.exam_id, query.anid));
  route(app, s, api.phoneSession, async ({ phone }) => s.phone.session(phone));
  route(app, s, api.phoneStsToken, async ({ phone }) => s.phone.sts(phone));
  route(app, s, api.phonePicture, async ({ body, phone }) => s.phone.picture(phone, body));
  route(app, s, api.verifyEvidence, async ({ staff, query }) => s.verification.verifyAs(staff, query.attempt_id));
}
