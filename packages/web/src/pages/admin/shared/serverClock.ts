/**
 * Date pickers and the server's zone. Exam times are shown and entered in the server's zone (UTC+8) whatever
 * the browser's zone is: a picker holds the server's wall clock as if it were local time.
 */
import { formatServerTime, parseServerTime } from '@examhall/contract';
import dayjs, { type Dayjs } from 'dayjs';

/** The picker value that shows `ms` as the server's wall clock; null for null. */
export function toPicker(ms: number | null | undefined): Dayjs | null {
  if (ms === null || ms === undefined) return null;
  return dayjs(formatServerTime(ms));
}

/** Epoch ms of a picker value read as the server's wall clock; null for none. */
export function fromPicker(value: Dayjs | null | undefined): number | null {
  if (!value?.isValid()) return null;
  const ms = parseServerTime(value.format('YYYY-MM-DD HH:mm:ss'));
  return Number.isNaN(ms) ? null : ms;
}
