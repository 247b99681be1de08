import { SERVER_UTC_OFFSET_MINUTES } from './constants.js';

/** Formats epoch ms as 'YYYY-MM-DD HH:mm:ss' in the server's zone (UTC+8). */
export function formatServerTime(ms: number): string {
  const d = new Date(ms + SERVER_UTC_OFFSET_MINUTES * 60_000);
  return d.toISOString().slice(0, 19).replace('T', ' ');
}

/** The server-zone offset as '+08:00'. */
export const SERVER_TIMEZONE = `+${String(SERVER_UTC_OFFSET_MINUTES / 60).padStart(2, '0')}:00`;

/** Epoch ms of the start of the server-zone day that contains `ms`. */
export function serverDayStart(ms: number): number {
  const offset = SERVER_UTC_OFFSET_MINUTES * 60_000;
  return Math.floor((ms + offset) / 86_400_000) * 86_400_000 - offset;
}

/** Parses 'YYYY-MM-DD HH:mm[:ss]' as server-zone time, or any ISO 8601 string with a zone; NaN when invalid. */
export function parseServerTime(text: string): number {
  const local = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/.exec(text.trim());
  if (local) {
    const [y, mo, d, h, mi, s] = local.slice(1).map((part) => Number(part ?? 0));
    const utc = Date.UTC(y!, mo! - 1, d!, h!, mi!, s!);
    return utc - SERVER_UTC_OFFSET_MINUTES * 60_000;
  }
  return /[zZ]|[+-]\d{2}:?\d{2}$/.test(text) ? Date.parse(text) : Number.NaN;
}
