/** The invitations tab's pure rules: phones pasted or uploaded in bulk, and how many SMS segments a text takes. */
import { InvitePhone } from '@examhall/contract';

/** A phone as the bulk invitation sends it. */
export interface ParsedPhone {
  area_code: string;
  phone: string;
}

/** A line that is not a phone, with its line number (from 1) as the author sees it. */
export interface BadLine {
  line: number;
  text: string;
}

/** Pasted or uploaded phones: the valid ones once each, the bad lines, and how many repeats were dropped. */
export interface ParsedPhones {
  valid: ParsedPhone[];
  invalid: BadLine[];
  duplicates: number;
}

/** A header row a spreadsheet export may start with. */
const HEADER = /^(phone|mobile|tel|手机|手机号|电话)/i;

/**
 * Phones one per line: "13800138000", "+852 51234567", "852-51234567" with "+" and separators optional when a
 * calling code is given with "+"; a .csv line keeps its first column. Blank lines and a header row are skipped.
 */
export function parseBulkPhones(text: string, defaultArea: string): ParsedPhones {
  const valid: ParsedPhone[] = [];
  const invalid: BadLine[] = [];
  const seen = new Set<string>();
  let duplicates = 0;
  text.split(/\r\n|\r|\n/).forEach((raw, i) => {
    const cell = (raw.split(/[,;\t]/)[0] ?? '')
      .replace(/^\uFEFF/, '')
      .replace(/^"|"$/g, '')
      .trim();
    if (cell === '' || (i === 0 && HEADER.test(cell))) return;
    const phone = phoneOf(cell, defaultArea);
    if (!phone || !InvitePhone.safeParse(phone).success) {
      invalid.push({ line: i + 1, text: raw.trim() });
      return;
    }
    const key = `${phone.area_code} ${phone.phone}`;
    if (seen.has(key)) duplicates += 1;
    else {
      seen.add(key);
      valid.push(phone);
    }
  });
  return { valid, invalid, duplicates };
}

function phoneOf(cell: string, defaultArea: string): ParsedPhone | null {
  const withArea = /^\+(\d{1,4})[-\s]*(\d[\d\s-]*)$/.exec(cell);
  if (withArea) return { area_code: withArea[1]!, phone: withArea[2]!.replace(/[-\s]/g, '') };
  const plain = cell.replace(/[-\s()]/g, '');
  return /^\d+$/.test(plain) ? { area_code: defaultArea, phone: plain } : null;
}

/** Characters of the GSM 7-bit default alphabet (one septet each). */
const GSM_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
/** Characters of the GSM extension table (two septets each). */
const GSM_EXTENDED = '^{}\\[~]|€\f';

/** How a text is encoded and how many segments it is sent as. */
export interface SmsSize {
  /** Characters as the handset counts them (a GSM extension character counts twice). */
  length: number;
  /** GSM 7-bit when every character allows it, else UCS-2 (any Chinese character). */
  encoding: 'gsm' | 'ucs2';
  /** Segments: one up to 160 (GSM) or 70 (UCS-2); longer texts go in parts of 153 or 67. */
  segments: number;
  /** Characters one segment holds in this encoding when the text is split. */
  perSegment: number;
}

/** The segments a text takes. */
export function smsSize(text: string): SmsSize {
  const chars = [...text];
  const gsm = chars.every((c) => GSM_BASIC.includes(c) || GSM_EXTENDED.includes(c));
  // UCS-2 counts UTF-16 units: a character outside the BMP (an emoji) takes two.
  const length = gsm ? chars.reduce((n, c) => n + (GSM_EXTENDED.includes(c) ? 2 : 1), 0) : text.length;
  const single = gsm ? 160 : 70;
  const part = gsm ? 153 : 67;
  const segments = length === 0 ? 0 : length <= single ? 1 : Math.ceil(length / part);
  return { length, encoding: gsm ? 'gsm' : 'ucs2', segments, perSegment: length <= single ? single : part };
}

/** Reminder presets: a day and an hour before the window opens (minutes). */
export const REMINDER_PRESETS = [1440, 60] as const;

/** A reminder time typed as "90", "90m", "2h" or "1d", in minutes; null when it is none of those. */
export function parseReminder(text: string): number | null {
  const m = /^(\d{1,5})\s*([mhd]?)$/i.exec(text.trim());
  if (!m) return null;
  const n = Number(m[1]);
  const unit = (m[2] ?? '').toLowerCase();
  const minutes = unit === 'd' ? n * 1440 : unit === 'h' ? n * 60 : n;
  return minutes > 0 ? minutes : null;
}
