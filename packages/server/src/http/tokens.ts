import { AUTH_COOKIE, STAFF_AUTH_COOKIE } from '@examhall/contract';
import type { FastifyRequest } from 'fastify';

/** The candidate token: the `auth` query parameter (the specification's rule) or the `auth` cookie. */
export function candidateToken(request: FastifyRequest): string | undefined {
  const q = request.url.indexOf('?');
  const fromQuery = q >= 0 ? new URLSearchParams(request.url.slice(q + 1)).get(AUTH_COOKIE) : null;
  return fromQuery || request.cookies[AUTH_COOKIE] || undefined;
}

/** The phone page's token: only the `auth` query parameter of the QR link. */
export function phoneToken(request: FastifyRequest): string | undefined {
  const q = request.url.indexOf('?');
  return (q >= 0 ? new URLSearchParams(request.url.slice(q + 1)).get(AUTH_COOKIE) : null) || undefined;
}

/** The staff token: `Authorization: Bearer` or the `staff_auth` cookie. */
export function staffToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice(7).trim() || undefined;
  return request.cookies[STAFF_AUTH_COOKIE] || undefined;
}

const SECRET_PARAMS =
  /([?&](?:auth|token|password|code|X-Amz-Security-Token|X-Amz-Signature|X-Amz-Credential)=)[^&#]*/gi;

/** A URL fit for a log line: token-bearing query values are replaced. */
export function redactUrl(url: string): string {
  return url.replace(SECRET_PARAMS, '$1[redacted]');
}
