import { SERVER_UTC_OFFSET_MINUTES, type IntegrityRecord } from '@examhall/contract';
import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc';
import type { MessageKey } from '../../../i18n/index.js';
import type { MessageParams } from '../../../i18n/format.js';
import { zh } from '../../../i18n/zh.js';

dayjs.extend(utc);

type T = (key: MessageKey, params?: MessageParams) => string;

function isKey(key: string): key is MessageKey {
  return key in zh;
}

/** What a record is, in words: the risk event's name, or the kind of evidence. */
export function eventName(t: T, r: Pick<IntegrityRecord, 'kind' | 'risk'>): string {
  if (r.kind === 'risk' || r.risk !== 0) {
    const key = `risk.name.${r.risk}`;
    return isKey(key) ? t(key) : t('risk.name.unknown', { id: r.risk });
  }
  const key = `console.proctor.kind.${r.kind}`;
  return isKey(key) ? t(key) : r.kind;
}

/** The category of a risk event, in words. */
export function categoryName(t: T, category: number): string {
  const key = `risk.category.${category}`;
  return isKey(key) ? t(key) : String(category);
}

/** A time of day on the server's clock (UTC+8), with seconds: the timeline's resolution. */
export function timeOfDay(ms: number): string {
  return dayjs(ms).utcOffset(SERVER_UTC_OFFSET_MINUTES).format('HH:mm:ss');
}
