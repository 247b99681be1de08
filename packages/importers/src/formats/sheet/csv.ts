/** CSV question sheets: UTF-8 (with or without BOM) or GB18030/GBK, detected; written as UTF-8 with a BOM. */
import { CsvError, parse } from 'csv-parse/sync';
import { problem, refuse } from '../../problems.js';
import { decodeText } from '../../text.js';
import type { Draft, ImportLimits, Problem, Where } from '../../types.js';
import { readSheets } from './read.js';
import { headerRow, questionRows } from './write.js';

/**
 * Cells Excel would run as formulas; the exporter writes them after a `'`, which the reader takes off again (a
 * cell that already starts with quotes before such a character gets one more, so that it survives).
 */
export const FORMULA_START = /^'*[=+\-@\t\r]/;
export const GUARDED = /^'+[=+\-@\t\r]/;

/** The delimiter of the first line: comma, tab or semicolon, whichever it has most of outside quotes. */
export function delimiterOf(text: string): string {
  const line = (text.split(/\r?\n/, 1)[0] ?? '').replace(/"[^"]*"/g, '');
  const counts = [',', '\t', ';'].map((d) => [d, line.split(d).length - 1] as const);
  return counts.reduce((best, c) => (c[1] > best[1] ? c : best))[0];
}

/** Reads a CSV sheet; a record past the row limit refuses the file before the rest is parsed. */
export function importCsv(
  bytes: Uint8Array,
  limits: ImportLimits,
  where: Where,
): { questions: Draft[]; problems: Problem[] } {
  const text = decodeText(bytes, where).replace(/^\ufeff/, '');
  let records: string[][];
  try {
    records = parse(text, {
      delimiter: delimiterOf(text),
      relax_column_count: true,
      skip_empty_lines: false,
      to: limits.sheetRows + 1,
    }) as string[][];
  } catch (e) {
    if (e instanceof CsvError) {
      const line = (e as CsvError & { lines?: number }).lines;
      const p = problem(line ? { ...where, line } : where, 'syntax', 'error', {
        detail: `the CSV is malformed: ${e.message}`,
        detail_zh: `CSV 格式错误：${e.message}`,
      });
      return { questions: [], problems: [p] };
    }
    throw e;
  }
  if (records.length > limits.sheetRows)
    refuse(where, 'sheet_too_many_rows', { count: `${limits.sheetRows}+`, limit: limits.sheetRows });
  const rows = records.flatMap((cells, i) => {
    const clean = cells.map((c) => (GUARDED.test(c) ? c.slice(1) : c).trim());
    return clean.some((c) => c !== '') ? [{ n: i + 1, cells: clean }] : [];
  });
  return readSheets([{ rows }], limits, where);
}

/** A CSV field, quoted when it must be, formula-looking text guarded with a `'`. */
function field(value: string): string {
  const v = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

/** Drafts as CSV in the one-row-per-question layout, UTF-8 with a BOM so that Excel opens it as UTF-8. */
export function exportCsv(drafts: Draft[]): { bytes: Uint8Array; problems: Problem[] } {
  const { rows, problems } = questionRows(drafts, 'CSV');
  const text = [headerRow('zh'), ...rows].map((r) => r.map(field).join(',')).join('\r\n');
  return { bytes: new TextEncoder().encode(`\ufeff${text}\r\n`), problems };
}
