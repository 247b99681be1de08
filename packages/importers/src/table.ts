/**
 * Plain tables in xlsx or CSV, for lists that are not questions (candidates, results): the first sheet's rows
 * as text cells, read with the same guards as the question sheets (size, zip bombs, row counts, encodings),
 * and rows written back as a file.
 */
import fs from 'node:fs';
import { Readable } from 'node:stream';
import { CsvError, parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { problem, Refusal, refuse } from './problems.js';
import { decodeText } from './text.js';
import type { Problem, Where } from './types.js';
import { DEFAULT_LIMITS } from './types.js';
import { isZip } from './zip.js';
import { delimiterOf, FORMULA_START, GUARDED } from './formats/sheet/csv.js';
import { cellText, sheetsLast, unzipWorkbook } from './formats/sheet/xlsx.js';

/** One non-empty row: its number in the sheet (1-based) and its cells, trimmed. */
export interface TableRow {
  n: number;
  cells: string[];
}

/** A table read: the header (the first non-empty row) and the data rows after it; or why the file is refused. */
export type TableResult =
  { refused: false; format: 'xlsx' | 'csv'; header: TableRow; rows: TableRow[] } | { refused: true; problem: Problem };

/** Bounds of a table read. */
export interface TableLimits {
  /** Largest file, bytes. */
  fileBytes: number;
  /** Data rows (after the header) accepted; one more refuses the file. */
  rows: number;
  /** Columns read per row (cells past it are ignored). */
  columns: number;
}

/** Reads a workbook's first worksheet with exceljs's streaming reader: rows are handed over one by one. */
async function xlsxRows(bytes: Uint8Array, limits: TableLimits, where: Where): Promise<TableRow[]> {
  // The header and the data rows, empty rows too: a sheet of a million empty rows is refused at the bound.
  const rows = limits.rows + 1;
  const entries = unzipWorkbook(
    bytes,
    DEFAULT_LIMITS,
    { rows, cells: rows * limits.columns, named: limits.rows },
    where,
  );
  const ordered = sheetsLast(entries);
  entries.clear();
  const read: TableRow[] = [];
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([Buffer.from(ordered)]), {
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'ignore',
    worksheets: 'emit',
    entries: 'ignore',
  });
  try {
    for await (const sheet of reader) {
      for await (const row of sheet as AsyncIterable<ExcelJS.Row>) {
        const values = row.values as ExcelJS.CellValue[];
        const cells: string[] = [];
        for (let i = 1; i < values.length && i <= limits.columns; i++) cells.push(cellText(values[i] ?? null).trim());
        if (cells.some((c) => c !== '')) read.push({ n: row.number, cells });
        if (read.length > rows) {
          refuse(where, 'sheet_too_many_rows', { count: `${limits.rows}+`, limit: limits.rows });
        }
      }
      // Only the first worksheet holds the list.
      break;
    }
  } catch (e) {
    if (e instanceof Refusal) throw e;
    refuse(where, 'xlsx_invalid', { detail: e instanceof Error ? e.message : String(e) });
  }
  return read;
}

/** Reads CSV (UTF-8, GBK/GB18030, UTF-16, detected), comma, tab or semicolon separated. */
function csvRows(bytes: Uint8Array, limits: TableLimits, where: Where): TableRow[] {
  const text = decodeText(bytes, where).replace(/^\ufeff/, '');
  let records: string[][];
  try {
    records = parse(text, {
      delimiter: delimiterOf(text),
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: false,
      to: limits.rows + 2,
    }) as string[][];
  } catch (e) {
    if (e instanceof CsvError) refuse(where, 'syntax', { detail: e.message, detail_zh: `CSV 格式错误：${e.message}` });
    throw e;
  }
  const rows = records.flatMap((cells, i) => {
    const clean = cells.slice(0, limits.columns).map((c) => (GUARDED.test(c) ? c.slice(1) : c).trim());
    return clean.some((c) => c !== '') ? [{ n: i + 1, cells: clean }] : [];
  });
  if (rows.length > limits.rows + 1)
    refuse(where, 'sheet_too_many_rows', { count: `${limits.rows}+`, limit: limits.rows });
  return rows;
}

/**
 * Reads a table from an xlsx workbook (its first sheet) or a CSV file, told apart by content (a zip is a
 * workbook). Never throws on bad input: a file that cannot be read is `refused` with a located problem.
 */
export async function readTable(name: string, bytes: Uint8Array, limits: TableLimits): Promise<TableResult> {
  const where: Where = { file: name };
  try {
    if (bytes.length > limits.fileBytes)
      refuse(where, 'file_too_large', { bytes: bytes.length, limit: limits.fileBytes });
    const format = isZip(bytes) ? 'xlsx' : 'csv';
    const rows = format === 'xlsx' ? await xlsxRows(bytes, limits, where) : csvRows(bytes, limits, where);
    const [header, ...data] = rows;
    if (!header) refuse(where, 'syntax', { detail: 'the file holds no rows', detail_zh: '文件中没有任何行' });
    return { refused: false, format, header, rows: data };
  } catch (e) {
    if (e instanceof Refusal) return { refused: true, problem: e.problem };
    const detail = e instanceof Error ? e.message : String(e);
    return { refused: true, problem: problem(where, 'syntax', 'error', { detail, detail_zh: detail }) };
  }
}

/** A CSV field: quoted when it must be, formula-looking text guarded with a `'`. */
function csvField(value: string): string {
  const v = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

/** A table as a file: xlsx (a header row in bold, frozen) or CSV (UTF-8 with a BOM, so Excel opens it as UTF-8). */
export async function writeTable(
  format: 'xlsx' | 'csv',
  header: readonly string[],
  rows: readonly (readonly (string | number | null)[])[],
  sheetName = 'Sheet1',
): Promise<Uint8Array> {
  if (format === 'csv') {
    const lines = [header, ...rows].map((r) => r.map((c) => csvField(c === null ? '' : String(c))).join(','));
    return new Uint8Array(Buffer.from(`\ufeff${lines.join('\r\n')}\r\n`, 'utf8'));
  }
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(sheetName, { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.addRow([...header]).font = { bold: true };
  // Text cells stay text (a phone number must not turn into 1.38E+10); numbers stay numbers.
  for (const r of rows) sheet.addRow(r.map((c) => (c === null ? '' : c)));
  sheet.columns.forEach((col) => {
    col.width = 16;
  });
  return new Uint8Array(await workbook.xlsx.writeBuffer());
}

/** Rows written one at a time into a file, so a large table never sits in memory whole. */
export interface TableWriter {
  /** Adds one row (waits while the file's stream is full). */
  add(row: readonly (string | number | null)[]): Promise<void>;
  /** Finishes the file. */
  close(): Promise<void>;
}

/**
 * A table written row by row into `file`: xlsx through exceljs's streaming writer (each row committed as it
 * goes), or CSV (UTF-8 with a BOM) on a file stream; the same header, cells and guards as `writeTable`.
 */
export async function openTableWriter(
  format: 'xlsx' | 'csv',
  file: string,
  header: readonly string[],
  sheetName = 'Sheet1',
): Promise<TableWriter> {
  if (format === 'csv') {
    const out = fs.createWriteStream(file);
    const write = (line: string) =>
      new Promise<void>((resolve, reject) => {
        const onError = (err: Error) => reject(err);
        out.once('error', onError);
        if (out.write(line, 'utf8')) {
          out.off('error', onError);
          resolve();
        } else {
          out.once('drain', () => {
            out.off('error', onError);
            resolve();
          });
        }
      });
    const line = (r: readonly (string | number | null)[]) =>
      `${r.map((c) => csvField(c === null ? '' : String(c))).join(',')}\r\n`;
    await write(`\ufeff${line(header)}`);
    return {
      add: (row) => write(line(row)),
      close: () =>
        new Promise<void>((resolve, reject) => {
          out.once('error', reject);
          out.end(() => resolve());
        }),
    };
  }
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useStyles: true });
  const sheet = workbook.addWorksheet(sheetName, { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = header.map(() => ({ width: 16 }));
  const head = sheet.addRow([...header]);
  head.font = { bold: true };
  head.commit();
  return {
    add: async (row) => {
      sheet.addRow(row.map((c) => (c === null ? '' : c))).commit();
    },
    close: async () => {
      sheet.commit();
      await workbook.commit();
    },
  };
}
