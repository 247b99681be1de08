import { formatServerTime } from '@examhall/contract';

/** A time as the server's clock shows it (UTC+8), which is how candidates read exam times: YYYY-MM-DD HH:mm. */
export function serverTime(ms: number): string {
  return formatServerTime(ms).slice(0, 16);
}
