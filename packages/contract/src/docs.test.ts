/**
 * Keeps docs/contract.md true to the contract: a call, risk event, question type, monitor step, error code or
 * language added here without being documented there fails, and so does a link to a section that is gone.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  api,
  AnswerEvent,
  ERRORS,
  ExamMode,
  ExamPhase,
  LANGUAGES,
  MONITOR_STEPS,
  QUESTION_TYPE_DISPLAY_ORDER,
  QUESTION_TYPES,
  RISK_EVENTS,
} from './index.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const doc = readFileSync(join(root, 'docs/contract.md'), 'utf8');
const lines = doc.split('\n');

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to dashes. */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

const headings = lines.filter((l) => /^#{1,6} /.test(l)).map((l) => l.replace(/^#+ /, ''));

/** The lines of one section, from its heading to the next heading of any level. */
function section(heading: string): string[] {
  const start = lines.findIndex((l) => /^#{2,6} /.test(l) && l.replace(/^#+ /, '') === heading);
  expect(start, `section "${heading}"`).toBeGreaterThanOrEqual(0);
  const end = lines.findIndex((l, i) => i > start && /^#{1,6} /.test(l));
  return lines.slice(start + 1, end < 0 ? undefined : end);
}

/** The cells of a table row, trimmed; null for a line that is not a row. */
const cells = (line: string) =>
  line.startsWith('|')
    ? line
        .split('|')
        .slice(1, -1)
        .map((c) => c.trim())
    : null;

/** Rows of the section's table(s) whose first cell is `first`. */
const rowsStarting = (heading: string, first: string) =>
  section(heading)
    .map(cells)
    .filter((c): c is string[] => c !== null && c[0] === first);

describe('docs/contract.md', () => {
  it('describes every call of the candidate, phone and public clients with its method and path', () => {
    const calls = Object.values(api).filter((c) => c.auth !== 'staff' && !c.path.startsWith('/admin'));
    expect(calls.length).toBeGreaterThan(40);
    for (const c of calls) expect(doc, `${c.method} ${c.path}`).toContain(`**\`${c.method} ${c.path}\`** (${c.auth})`);
  });

  it('lists every /admin call in the staff console table', () => {
    const rows = section('Staff console').map(cells);
    for (const c of Object.values(api).filter((c) => c.path.startsWith('/admin') || c.auth === 'staff')) {
      const found = rows.some((r) => r?.[0] === c.method && r[1] === `\`${c.path}\``);
      expect(found, `${c.method} ${c.path}`).toBe(true);
    }
  });

  it('gives every question type its row and the display order', () => {
    for (const t of QUESTION_TYPES) expect(rowsStarting('Question types', String(t)), `type ${t}`).toHaveLength(1);
    expect(section('Question types').join('\n')).toContain(`Display order: ${QUESTION_TYPE_DISPLAY_ORDER.join(', ')}.`);
  });

  it('gives every risk event its row with its key and category', () => {
    for (const [key, event] of Object.entries(RISK_EVENTS)) {
      const [row] = rowsStarting('Risk events', String(event.id));
      expect(row?.[1], `risk ${event.id}`).toBe(`\`${key}\``);
      expect(row?.[3]?.startsWith(`${event.type} `), `category of risk ${event.id}`).toBe(true);
    }
  });

  it('gives the monitor steps in check order with their ids', () => {
    const rows = section('Monitor steps')
      .map(cells)
      .filter((c): c is string[] => c !== null && /^\d+$/.test(c[0] ?? ''));
    expect(rows.map((r) => [r[1], r[2]])).toEqual(MONITOR_STEPS.map((s) => [String(s.id), `\`${s.key}\``]));
  });

  it('gives the ids of phases, modes and answer events', () => {
    const table = (heading: string, values: Record<string, number>) => {
      for (const [key, id] of Object.entries(values)) {
        expect(rowsStarting(heading, String(id))[0]?.[1], `${heading} ${id}`).toBe(`\`${key}\``);
      }
    };
    table('Exam phases', ExamPhase);
    table('Exam modes', ExamMode);
    table('Answer events', AnswerEvent);
  });

  it('lists every error code with its status, and every language', () => {
    for (const [code, e] of Object.entries(ERRORS)) {
      expect(rowsStarting('Errors', `\`${code}\``)[0]?.[1], code).toBe(String(e.status));
    }
    for (const l of LANGUAGES) expect(rowsStarting('Languages', `\`${l.id}\``), l.id).toHaveLength(1);
  });

  it('has every section that code points at', () => {
    const anchors = new Set(headings.map(anchorOf));
    const pointers = new Set<string>();
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        if (entry.name === 'node_modules' || entry.name === 'dist') continue;
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (/\.(ts|tsx|md)$/.test(entry.name)) {
          for (const m of readFileSync(path, 'utf8').matchAll(/docs\/contract\.md#([\w-]+)/g)) pointers.add(m[1]!);
        }
      }
    };
    for (const dir of ['packages', 'e2e']) walk(join(root, dir));
    walk(join(root, 'docs'));
    for (const m of readFileSync(join(root, 'README.md'), 'utf8').matchAll(/docs\/contract\.md#([\w-]+)/g)) {
      pointers.add(m[1]!);
    }
    for (const m of doc.matchAll(/\]\(#([\w-]+)\)/g)) pointers.add(m[1]!);
    expect(pointers.size).toBeGreaterThan(0);
    for (const p of pointers) expect(anchors.has(p), `#${p}`).toBe(true);
  });
});
