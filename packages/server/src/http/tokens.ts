import { AUTH_COOKIE, STAFF_AUTH_COOKIE } from '@examhall/contract';
import type { FastifyRequest } from 'fastify';

/** A token and whether the browser attached it by itself (a cookie), which is what cross-site requests abuse. */
export interface Credential {
  token: string;
  viaCookie: boolean;
}

function authParam(request: FastifyRequest): string | null {
  const q = request.url.indexOf('?');
  return q >= 0 ? new URLSearchParams(request.url.slice(q + 1)).get(AUTH_COOKIE) : null;
}

/**
 * The candidate's credential: the `auth` query parameter, which the candidate client puts on every request, or
 * else the `auth` cookie.
 */
export function candidateCredential(request: FastifyRequest): Credential | undefined {
  const fromQuery = authParam(request);
  if (fromQuery) return { token: fromQuery, viaCookie: false };
  const fromCookie = request.cookies[AUTH_COOKIE];
  return fromCookie ? { token: fromCookie, viaCookie: true } : undefined;
}

/** The phone page's token: only the `auth` query parameter of the QR link. */
export function phoneToken(request: FastifyRequest): string | undefined {
  return authParam(request) || undefined;
}

/** The staff credential: `Authorization: Bearer` or the `staff_auth` cookie. */
export function staffCredential(request: FastifyRequest): Credential | undefined {
  const header = request.headers.authorization;
  if (header?.startsWith('Bearer ')) {
    const token = header.slice(7).trim();
    return token ? { token, viaCookie: false } : undefined;
  }
  const fromCookie = request.cookies[STAFF_AUTH_COOKIE];
  return fromCookie ? { token: fromCookie, viaCookie: true } : undefined;
}

/** An API token: only `Authorization: Bearer`, never a cookie or the query string. */
export function apiToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header?.startsWith('Bearer ')) return undefined;
  return header.slice(7).trim() || undefined;
}

/** Query parameters whose values are secrets (compared after decoding, ignoring case). */
const SECRET_PARAMS = new Set([
  'auth',
  'token',
  'password',
  'code',
  'x-amz-security-token',
  'x-amz-signature',
  'x-amz-credential',
]);

/** Form-decodes a query component (`+` is a space); a broken escape leaves that escape as it is. */
function decodeComponent(text: string): string {
  const spaced = text.replaceAll('+', ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced.replace(/%[0-9a-fA-F]{2}/g, (escape) => {
      try {
        return decodeURIComponent(escape);
      } catch {
        return escape;
      }
    });
  }
}

/** Decodes until nothing changes (a few rounds): an address inside a parameter is encoded once per level. */
function decodeFully(raw: string): string {
  let text = raw;
  for (let i = 0; i < 4; i += 1) {
    const decoded = decodeComponent(text);
    if (decoded === text) break;
    text = decoded;
  }
  return text;
}

/** Whether a raw parameter name names a secret, however it is spelt (escapes, even repeated, case, `[]`). */
function isSecretName(raw: string): boolean {
  return SECRET_PARAMS.has(
    decodeFully(raw)
      .trim()
      .toLowerCase()
      .replace(/\[[^\]]*\]$/, ''),
  );
}

/**
 * A URL fit for a log line: the values of secret query parameters are replaced, whatever the spelling of the
 * name, and so are secrets inside a parameter that carries another address (the `referer` of a page opened
 * from a link with `auth`).
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const hash = url.indexOf('#', q);
  const query = url.slice(q + 1, hash < 0 ? undefined : hash);
  const pairs = query.split('&').map((pair) => {
    const eq = pair.indexOf('=');
    if (eq < 0) return pair;
    const name = pair.slice(0, eq);
    if (isSecretName(name)) return `${name}=[redacted]`;
    const value = decodeFully(pair.slice(eq + 1));
    if (!value.includes('=')) return pair;
    const inner = redactUrl(value.includes('?') ? value : `?${value}`);
    const original = value.includes('?') ? value : `?${value}`;
    if (inner === original) return pair;
    const encoded = encodeURIComponent(value.includes('?') ? inner : inner.slice(1));
    return `${name}=${encoded.replaceAll('%5Bredacted%5D', '[redacted]')}`;
  });
  return `${url.slice(0, q + 1)}${pairs.join('&')}${hash < 0 ? '' : url.slice(hash)}`;
}
