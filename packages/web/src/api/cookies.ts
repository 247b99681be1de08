/** Cookie helpers. The candidate token lives in cookie `auth` so sister sites on the parent domain share it. */
import { AUTH_COOKIE, AUTH_COOKIE_DAYS } from '@examhall/contract';

/** The value of cookie `name` in a `document.cookie` string, or null. */
export function readCookie(cookieHeader: string, name: string): string | null {
  for (const part of cookieHeader.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() !== name) continue;
    const raw = part.slice(eq + 1).trim();
    try {
      return decodeURIComponent(raw) || null;
    } catch {
      return raw || null;
    }
  }
  return null;
}

/** The `document.cookie` assignment that stores `value` for `days` days on `domain` (host only when empty). */
export function cookieString(name: string, value: string, days: number, domain: string): string {
  const expires = new Date(Date.now() + days * 86_400_000).toUTCString();
  const parts = [`${name}=${encodeURIComponent(value)}`, `expires=${expires}`, 'path=/', 'SameSite=Lax'];
  if (domain) parts.push(`domain=${domain}`);
  return parts.join('; ');
}

/** The assignments that delete cookie `name`, on `domain` and host-only, since either may hold it. */
export function removalStrings(name: string, domain: string): string[] {
  const gone = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  return domain ? [`${gone}; domain=${domain}`, gone] : [gone];
}

/** Stores the candidate token as the server does, so it also holds when only the body carried it. */
export function storeAuth(token: string, domain: string): void {
  document.cookie = cookieString(AUTH_COOKIE, token, AUTH_COOKIE_DAYS, domain);
}

/** Forgets the candidate token. */
export function clearAuth(domain: string): void {
  for (const s of removalStrings(AUTH_COOKIE, domain)) document.cookie = s;
}

/** The candidate token, or null. */
export function currentAuth(): string | null {
  return readCookie(document.cookie, AUTH_COOKIE);
}
