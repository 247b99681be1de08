import { LANGUAGE_IDS } from '@examhall/contract';
import type { LanguageId } from '@examhall/contract';

/** How an output is compared with the expected one. */
export type CheckerSpec =
  | { kind: 'default' }
  | { kind: 'exact' }
  | { kind: 'float'; absolute: number; relative: number }
  | { kind: 'lines' }
  | { kind: 'custom'; language: LanguageId; source: string };

/** A built-in comparison's verdict. */
export interface CheckOutcome {
  ok: boolean;
  /** Where they first differ, for graders (never shown for hidden cases). */
  message?: string;
}

/**
 * Parses a checker name: `default`, `exact`, `lines`, `float` (1e-6), `float:EPS` (absolute and
 * relative EPS) or `float:ABS:REL`. Custom checkers are given as objects, not names.
 */
export function parseChecker(name: string): Exclude<CheckerSpec, { kind: 'custom' }> {
  const [kind = '', ...rest] = name.trim().split(':');
  switch (kind) {
    case 'default':
    case 'exact':
    case 'lines':
      if (rest.length) break;
      return { kind };
    case 'float': {
      const nums = rest.map(Number);
      if (nums.length > 2 || nums.some((n) => !Number.isFinite(n) || n < 0)) break;
      const absolute = nums[0] ?? 1e-6;
      return { kind: 'float', absolute, relative: nums[1] ?? absolute };
    }
    default:
      break;
  }
  throw new Error(`unknown checker "${name}": use default, exact, lines, float, float:EPS or float:ABS:REL`);
}

/** Checks that a custom checker names a known language. */
export function isCheckerLanguage(id: string): id is LanguageId {
  return (LANGUAGE_IDS as readonly string[]).includes(id);
}

function tokens(text: string): string[] {
  const t = text.trim();
  return t === '' ? [] : t.split(/\s+/);
}

function show(token: string | undefined): string {
  return token === undefined ? 'end of output' : JSON.stringify(token.length > 40 ? `${token.slice(0, 40)}…` : token);
}

function compareTokens(expected: string, actual: string, same: (e: string, a: string) => boolean): CheckOutcome {
  const e = tokens(expected);
  const a = tokens(actual);
  const n = Math.max(e.length, a.length);
  for (let i = 0; i < n; i++) {
    const x = e[i];
    const y = a[i];
    if (x === undefined || y === undefined || !same(x, y)) {
      return { ok: false, message: `token ${i + 1}: expected ${show(x)}, got ${show(y)}` };
    }
  }
  return { ok: true };
}

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$|^[+-]?(inf|infinity|nan)$/i;

function closeEnough(e: string, a: string, absolute: number, relative: number): boolean {
  if (e === a) return true;
  if (!NUMBER.test(e) || !NUMBER.test(a)) return false;
  const x = Number(e.replace(/^([+-]?)inf(inity)?$/i, '$1Infinity'));
  const y = Number(a.replace(/^([+-]?)inf(inity)?$/i, '$1Infinity'));
  if (Number.isNaN(x) || Number.isNaN(y)) return Number.isNaN(x) && Number.isNaN(y);
  if (!Number.isFinite(x) || !Number.isFinite(y)) return x === y;
  const diff = Math.abs(x - y);
  return diff <= absolute || diff <= relative * Math.abs(x);
}

function normalLines(text: string): string[] {
  return text
    .split('\n')
    .map((l) => tokens(l).join(' '))
    .filter((l) => l !== '');
}

/** Compares an output with the expected one using a built-in checker. */
export function check(spec: Exclude<CheckerSpec, { kind: 'custom' }>, expected: string, actual: string): CheckOutcome {
  switch (spec.kind) {
    case 'default':
      return compareTokens(expected, actual, (e, a) => e === a);
    case 'exact':
      if (expected === actual) return { ok: true };
      for (let i = 0; i < Math.max(expected.length, actual.length); i++) {
        if (expected[i] !== actual[i]) return { ok: false, message: `first difference at byte ${i}` };
      }
      return { ok: false };
    case 'float':
      return compareTokens(expected, actual, (e, a) => closeEnough(e, a, spec.absolute, spec.relative));
    case 'lines': {
      const e = normalLines(expected).sort();
      const a = normalLines(actual).sort();
      if (e.length !== a.length) return { ok: false, message: `expected ${e.length} lines, got ${a.length}` };
      const bad = e.findIndex((line, i) => line !== a[i]);
      return bad < 0 ? { ok: true } : { ok: false, message: `line ${show(e[bad])} is missing` };
    }
  }
}
