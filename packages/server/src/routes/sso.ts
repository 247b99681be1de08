import { STAFF_AUTH_COOKIE, STAFF_TOKEN_HOURS, api } from '@examhall/contract';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import { downloadRoute, redirectRoute, route } from '../http/route.js';
import { SSO_REQUEST_MS } from '../services/oidc.js';
import type { Services } from '../services/index.js';

/** The cookie that binds an OpenID Connect sign-in's state to the browser that started it. */
export const OIDC_STATE_COOKIE = 'oidc_state';

/** The cookie that binds a SAML sign-in (its AuthnRequest's id) to the browser that started it. */
export const SAML_REQUEST_COOKIE = 'saml_request';

/** Single sign-on: what the login page offers, the providers' sign-in steps, and the admin's mappings and policy. */
export function ssoRoutes(app: FastifyInstance, services: Services, config: Config): void {
  const secure = config.publicUrl.startsWith('https:');
  const staffCookie = {
    path: '/',
    maxAge: STAFF_TOKEN_HOURS * 3_600,
    sameSite: 'strict' as const,
    httpOnly: true,
    secure,
  };
  // Lax: the provider's redirect back is a top-level navigation from its site, which a strict cookie would miss.
  const stateCookie = {
    path: `${config.apiPrefix}/admin/auth/oidc`,
    maxAge: SSO_REQUEST_MS / 1000,
    sameSite: 'lax' as const,
    httpOnly: true,
    secure,
  };
  // None: the provider's answer is a POST from its site, which brings back no Lax or Strict cookie. Browsers take a
  // None cookie only as Secure, which they accept over https and from this machine's own address (config.ts refuses
  // SAML on any other plain-http address).
  const samlCookie = {
    path: `${config.apiPrefix}${api.samlAcs.path}`,
    maxAge: SSO_REQUEST_MS / 1000,
    sameSite: 'none' as const,
    httpOnly: true,
    secure: true,
  };

  route(app, services, api.ssoOptions, async () => {
    const policy = await services.ssoAdmin.policy();
    return {
      oidc: config.oidc ? { name: config.oidc.name, start_path: `${config.apiPrefix}${api.oidcStart.path}` } : null,
      saml: config.saml ? { name: config.saml.name, start_path: `${config.apiPrefix}${api.samlStart.path}` } : null,
      required: policy.required,
    };
  });

  redirectRoute(app, services, api.oidcStart, async ({ query, reply }) => {
    const { location, state } = await services.oidc.start(query.redirect);
    reply.setCookie(OIDC_STATE_COOKIE, state, stateCookie);
    return location;
  });

  redirectRoute(app, services, api.oidcCallback, async ({ request, reply }) => {
    // The state is good once, whatever the answer.
    reply.clearCookie(OIDC_STATE_COOKIE, { path: stateCookie.path });
    const search = request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '';
    const { token, redirect } = await services.oidc.callback(search, request.cookies[OIDC_STATE_COOKIE], {
      ip: request.ip,
      userAgent: request.headers['user-agent'],
    });
    reply.setCookie(STAFF_AUTH_COOKIE, token, staffCookie);
    return redirect;
  });

  // What the identity provider is given (or reads itself) to know this site.
  downloadRoute(app, services, api.samlMetadata, async () => ({
    bytes: Buffer.from(services.saml.metadata()),
    mime: 'application/samlmetadata+xml',
    fileName: 'examhall-saml-metadata.xml',
  }));

  redirectRoute(app, services, api.samlStart, async ({ query, reply }) => {
    const { location, requestId } = await services.saml.start(query.redirect);
    reply.setCookie(SAML_REQUEST_COOKIE, requestId, samlCookie);
    return location;
  });

  // The provider's response, posted by the browser from the provider's page (HTTP-POST binding).
  redirectRoute(app, services, api.samlAcs, async ({ body, request, reply }) => {
    // The request is good once, whatever the answer (cleared with the attributes it was set with; the expiry is
    // clearCookie's own).
    reply.clearCookie(SAML_REQUEST_COOKIE, samlCookie);
    const { token, redirect } = await services.saml.acs(body.SAMLResponse, request.cookies[SAML_REQUEST_COOKIE], {
      ip: request.ip,
      userAgent: request.headers['user-agent'],
    });
    reply.setCookie(STAFF_AUTH_COOKIE, token, staffCookie);
    return redirect;
  });

  route(app, services, api.ssoGroupList, async ({ staff }) => ({ list: await services.ssoAdmin.groups(staff) }));
  route(app, services, api.ssoGroupCreate, async ({ staff, body }) => services.ssoAdmin.createGroup(staff, body));
  route(app, services, api.ssoGroupUpdate, async ({ staff, body }) => services.ssoAdmin.updateGroup(staff, body));
  route(app, services, api.ssoGroupDelete, async ({ staff, body }) => {
    await services.ssoAdmin.deleteGroup(staff, body.id);
    return {};
  });
  route(app, services, api.ssoSettings, async ({ staff }) => services.ssoAdmin.settings(staff));
  route(app, services, api.ssoSettingsUpdate, async ({ staff, body }) =>
    services.ssoAdmin.updateSettings(staff, body.required, body.break_glass),
  );
}
