import { AREA_CODES, AUTH_COOKIE, AUTH_COOKIE_DAYS, api } from '@examhall/contract';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import { route } from '../http/route.js';
import type { Services } from '../services/index.js';

/** Candidate login and identity. */
export function userRoutes(app: FastifyInstance, services: Services, config: Config): void {
  const cookie = {
    path: '/',
    maxAge: AUTH_COOKIE_DAYS * 86_400,
    sameSite: 'lax' as const,
    // The candidate client reads this cookie to send `auth` as a query parameter, so it cannot be httpOnly.
    httpOnly: false,
    secure: config.publicUrl.startsWith('https:'),
    ...(config.cookieDomain ? { domain: config.cookieDomain } : {}),
  };

  route(app, services, api.areaCodeList, async () => ({ list: [...AREA_CODES] }));

  route(app, services, api.sendMsg, async ({ query, request }) =>
    services.candidateAuth.sendCode(query.area_code, query.phone, request.ip),
  );

  route(app, services, api.login, async ({ body, request, reply }) => {
    const { token, expiresAt, candidate } = await services.candidateAuth.login(
      body.area_code,
      body.phone,
      body.code,
      request.ip,
    );
    reply.setCookie(AUTH_COOKIE, token, cookie);
    return { auth: token, user_id: candidate.id, phone: candidate.phone, expires_at: expiresAt };
  });

  route(app, services, api.getInfo, async ({ candidate }) => services.candidateAuth.info(candidate));

  route(app, services, api.logout, async ({ token, reply }) => {
    await services.candidateAuth.logout(token);
    reply.clearCookie(AUTH_COOKIE, { path: '/', ...(config.cookieDomain ? { domain: config.cookieDomain } : {}) });
    return {};
  });
}
