/**
 * Checks every catalogue call makes before its body is read: the body is in the format the catalogue declares,
 * and a write authenticated by a cookie comes from the site's own origin. A page on a sibling domain could
 * otherwise post a form (which needs no CORS preflight) with the staff cookie attached and create an admin.
 * The login calls are checked the same way, though no cookie signs them: another site could otherwise sign a
 * browser into the attacker's account (login CSRF) and see what its user then types or uploads there.
 */
import { api, type CallDef } from '@examhall/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { fail } from '../errors.js';
import { authenticatedByCookie } from './route.js';

const MEDIA_TYPES: Record<NonNullable<CallDef['bodyFormat']>, string> = {
  json: 'application/json',
  form: 'application/x-www-form-urlencoded',
  multipart: 'multipart/form-data',
};

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The calls that sign a browser in, or start to (the SMS code, which a GET asks for). A request that names no
 * origin at all still passes: a browser names one on every cross-site POST and fetch, while clients outside a
 * browser (the bench, other systems' scripts) name none.
 */
const LOGIN_CALLS: ReadonlySet<CallDef> = new Set<CallDef>([api.sendMsg, api.login, api.staffLogin]);

function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** The origin a request says it comes from: `Origin`, else the origin of `Referer`; undefined when neither. */
export function requestOrigin(request: FastifyRequest): string | undefined {
  const origin = request.headers.origin;
  if (origin) return origin;
  const referer = request.headers.referer;
  if (!referer) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return undefined;
  }
}

/**
 * Refuses a body in another format than the call's (415), a cross-origin write signed in by cookie and a login
 * from another origin (403).
 */
export function installRequestGuards(app: FastifyInstance, publicUrl: string): void {
  const siteOrigin = new URL(publicUrl).origin;
  app.addHook('preParsing', async (request, _reply, payload) => {
    const call = (request.routeOptions.config as { call?: CallDef } | undefined)?.call;
    if (call && LOGIN_CALLS.has(call)) {
      const named = request.headers.origin || request.headers.referer;
      const origin = requestOrigin(request);
      if (named && origin !== siteOrigin) {
        throw fail(
          'cross_origin',
          `origin: a login from ${origin ?? 'an unreadable referer'} is not accepted, only from ${siteOrigin}`,
        );
      }
    }
    if (!call || SAFE_METHODS.has(request.method)) return payload;
    if (authenticatedByCookie(request) && requestOrigin(request) !== siteOrigin) {
      throw fail('cross_origin', `origin: ${requestOrigin(request) ?? 'none'} is not ${siteOrigin}`);
    }
    if (hasBody(request)) {
      const expected = MEDIA_TYPES[call.bodyFormat ?? 'json'];
      const sent = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
      if (sent !== expected) throw fail('unsupported_media_type', `body: send ${expected}`);
    }
    return payload;
  });
}
