import { STAFF_AUTH_COOKIE, STAFF_TOKEN_HOURS, api } from '@examhall/contract';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import { route } from '../http/route.js';
import type { Services } from '../services/index.js';

/** Staff login and account management. */
export function adminRoutes(app: FastifyInstance, services: Services, config: Config): void {
  const cookie = {
    path: '/',
    maxAge: STAFF_TOKEN_HOURS * 3_600,
    sameSite: 'strict' as const,
    httpOnly: true,
    secure: config.publicUrl.startsWith('https:'),
  };

  route(app, services, api.staffLogin, async ({ body, request, reply }) => {
    const { token, expiresAt, staff } = await services.staffLogin.login(body.phone, body.password, {
      ip: request.ip,
      userAgent: request.headers['user-agent'],
      totpCode: body.totp_code,
      recoveryCode: body.recovery_code,
    });
    reply.setCookie(STAFF_AUTH_COOKIE, token, cookie);
    return { token, expires_at: expiresAt, staff };
  });

  route(app, services, api.staffLogout, async ({ staff, token, reply }) => {
    await services.staffLogin.logout(staff, token);
    reply.clearCookie(STAFF_AUTH_COOKIE, { path: '/' });
    return {};
  });

  route(app, services, api.staffMe, async ({ staff }) => services.staff.me(staff));
  route(app, services, api.staffSessions, async ({ staff }) => ({ list: await services.staffSessions.mine(staff) }));
  route(app, services, api.staffSessionEnd, async ({ staff, body }) => {
    await services.staffSessions.endMine(staff, body.session);
    return {};
  });
  route(app, services, api.staffSessionsOf, async ({ staff, query }) => ({
    list: await services.staffSessions.of(staff, query.id),
  }));
  route(app, services, api.staffSessionEndOf, async ({ staff, body }) => {
    await services.staffSessions.endOf(staff, body.id, body.session);
    return {};
  });
  route(app, services, api.staffTotpEnrol, async ({ staff }) => services.staffTotp.enrolTotp(staff));
  route(app, services, api.staffTotpConfirm, async ({ staff, body }) =>
    services.staffTotp.confirmTotp(staff, body.code),
  );
  route(app, services, api.staffTotpDisable, async ({ staff, body }) => {
    await services.staffTotp.disableTotp(staff, body);
    return {};
  });
  route(app, services, api.staffList, async ({ staff }) => ({ list: await services.staff.list(staff) }));
  route(app, services, api.staffCreate, async ({ staff, body }) => services.staff.create(staff, body));
  route(app, services, api.staffUpdate, async ({ staff, body }) => services.staff.update(staff, body));
  route(app, services, api.staffResetPassword, async ({ staff, body }) => {
    await services.staff.resetPassword(staff, body.id, body.password);
    return {};
  });
  route(app, services, api.staffResetTotp, async ({ staff, body }) => {
    await services.staffTotp.resetTotp(staff, body.id);
    return {};
  });
}
