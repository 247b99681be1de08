/**
 * The audit log's before/after as rows a person can read: each leaf field by its path, with what it was,
 * what it became and whether it changed. Framework-free so it is tested on its own.
 */

import { serverTime } from '../../../shell/serverTime.js';
import { isTimeField } from './fields.js';

/** What happened to one field between before and after. */
export type FieldChange = 'added' | 'removed' | 'changed' | 'same';

/** One field of an audit entry's diff. */
export interface DiffRow {
  /** Where the field is, e.g. `settings.is_paste` or `sections[1].title`. */
  path: string;
  /** Its value before, as text; null when it was not there. */
  before: string | null;
  /** Its value after, as text; null when it is gone. */
  after: string | null;
  /** What happened to it. */
  change: FieldChange;
}

/** Deepest nesting followed; anything below is shown whole (JSON) as one value. */
const MAX_DEPTH = 6;

/** Longest text shown for one value; the rest is cut with an ellipsis (long HTML stems, code). */
export const VALUE_MAX_CHARS = 400;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function isRecord(v: unknown): v is Record<string, Json> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** An array of scalars reads best as one value ("a, b, c"), not as one row per item. */
function isScalarArray(v: unknown): v is (string | number | boolean | null)[] {
  return Array.isArray(v) && v.every((x) => x === null || typeof x !== 'object');
}

/** Epoch ms from this on are times (2001 on); a smaller number in a time field is shown as it is. */
const EPOCH_MS_FROM = 1e12;

/** A value as shown in one cell; a time field's epoch ms as a time on the server's clock. */
export function showValue(v: unknown, path = ''): string {
  let text: string;
  if (v === null || v === undefined) text = '∅';
  else if (typeof v === 'number' && v >= EPOCH_MS_FROM && isTimeField(path)) text = serverTime(v);
  else if (typeof v === 'string') text = v;
  else if (typeof v === 'number' || typeof v === 'boolean') text = String(v);
  else if (isScalarArray(v)) text = `[${v.map((x) => showValue(x)).join(', ')}]`;
  else text = JSON.stringify(v);
  return text.length > VALUE_MAX_CHARS ? `${text.slice(0, VALUE_MAX_CHARS)}…` : text;
}

/** The leaf fields of a value by path, in the order they appear. */
export function flatten(
  value: unknown,
  prefix = '',
  depth = 0,
  out = new Map<string, unknown>(),
): Map<string, unknown> {
  if (depth < MAX_DEPTH && isRecord(value) && Object.keys(value).length > 0) {
    for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, depth + 1, out);
  } else if (depth < MAX_DEPTH && Array.isArray(value) && value.length > 0 && !isScalarArray(value)) {
    value.forEach((v, i) => flatten(v, `${prefix}[${i}]`, depth + 1, out));
  } else {
    out.set(prefix || '(value)', value);
  }
  return out;
}

/** Deep equality of JSON values (key order ignored). */
function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => same(x, b[i]));
  if (isRecord(a) && isRecord(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => k in b && same(a[k], b[k]));
  }
  return false;
}

/**
 * Compares an entry's before and after (either may be null: a create or a delete) field by field. Fields
 * keep the order they have in `after`, then those only in `before`; unchanged fields are kept (marked
 * 'same') so a page can show them dimmed or hide them.
 */
export function diffEntries(before: unknown, after: unknown): DiffRow[] {
  const b = before === null || before === undefined ? new Map<string, unknown>() : flatten(before);
  const a = after === null || after === undefined ? new Map<string, unknown>() : flatten(after);
  const rows: DiffRow[] = [];
  for (const [path, value] of a) {
    if (!b.has(path)) rows.push({ path, before: null, after: showValue(value, path), change: 'added' });
    else {
      const old = b.get(path);
      rows.push({
        path,
        before: showValue(old, path),
        after: showValue(value, path),
        change: same(old, value) ? 'same' : 'changed',
      });
    }
  }
  for (const [path, value] of b) {
    if (!a.has(path)) rows.push({ path, before: showValue(value, path), after: null, change: 'removed' });
  }
  return rows;
}

/** How many fields changed, were added or removed. */
export function countChanges(rows: readonly DiffRow[]): number {
  return rows.filter((r) => r.change !== 'same').length;
}
