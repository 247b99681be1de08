import { api } from '@examhall/contract';
import type { FastifyInstance } from 'fastify';
import { route, uploadRoute } from '../http/route.js';
import type { Services } from '../services/index.js';

/** The candidate profile, resume and the lists behind the form. */
export function profileRoutes(app: FastifyInstance, s: Services): void {
  route(app, s, api.myInfo, async ({ candidate }) => s.profile.myInfo(candidate));
  route(app, s, api.saveMyInfo, async ({ body, candidate }) => s.profile.save(candidate, body));
  route(app, s, api.resume, async ({ candidate }) => s.profile.resume(candidate));
  uploadRoute(app, s, api.uploadResume, async ({ file, candidate }) => s.profile.uploadResume(candidate, file));
  route(app, s, api.colleges, async ({ query }) => s.profile.colleges(query.keyword));
  route(app, s, api.majors, async () => s.profile.majors());
}
