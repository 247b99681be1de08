/**
 * Excel workbooks: read (after the zip checks, with each sheet's rows counted by the XML parser), written in the
 * one-row-per-question layout.
 */
import ExcelJS from 'exceljs';
import { zipSync } from 'fflate';
import { SaxesParser } from 'saxes';
import { refuse, Refusal } from '../../problems.js';
import type { Draft, ImportLimits, Problem, Where } from '../../types.js';
import { unzipSafely } from '../../zip.js';
import { columnLetter, DIFFICULTY_VALUES, TYPE_VALUES } from './columns.js';
import { readSheets, type SheetRows } from './read.js';
import { TEMPLATE_EXAMPLES, TEMPLATE_INSTRUCTIONS } from './template.js';
import { COLUMNS, headerRow, questionRows } from './write.js';

/** A cell's value as text: rich text joined, formulas by their result, dates as ISO dates. */
export function cellText(v: ExcelJS.CellValue): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  if ('richText' in v) return v.richText.map((r) => r.text).join('');
  if ('formula' in v || 'sharedFormula' in v) return cellText((v as { result?: ExcelJS.CellValue }).result ?? null);
  if ('text' in v && typeof v.text === 'string') return v.text;
  return '';
}

/**
 * Entries exceljs may read as a worksheet: its readers match `xl/worksheets/sheetN.xml` anywhere in a path, so
 * every such entry is counted, wherever it stands.
 */
const WORKSHEET = /xl\/worksheets\/[^/]+\.xml/;

/** How much one worksheet may hold before the workbook is refused. */
export interface SheetBounds {
  /** Rows, empty ones too. */
  rows: number;
  /** Cells, empty ones too. */
  cells: number;
  /** The bound a refusal names, when it is not `rows` (a table's data rows, its header aside). */
  named?: number;
}

/** An element's name without its namespace prefix. */
const localName = (name: string) => name.slice(name.indexOf(':') + 1);

/**
 * Counts a worksheet's rows and cells as its bytes are inflated, by the XML parser exceljs itself reads sheets
 * with (saxes): an element is a row whatever the whitespace or attributes in its tag, and a prefixed one counts
 * too. Refuses the sheet as soon as a bound is passed, so nothing past it is inflated, kept or parsed.
 */
function sheetCounter(path: string, bounds: SheetBounds, where: Where): (chunk: Uint8Array, final: boolean) => void {
  const parser = new SaxesParser();
  const decoder = new TextDecoder();
  const limit = bounds.named ?? bounds.rows;
  let rows = 0;
  let cells = 0;
  parser.on('opentagstart', (tag) => {
    const name = localName(tag.name);
    if (name === 'row') {
      if (++rows > bounds.rows)
        refuse({ ...where, file: path }, 'sheet_too_many_rows', { count: `${bounds.rows}+`, limit });
    } else if (name === 'c' && ++cells > bounds.cells) {
      refuse({ ...where, file: path }, 'sheet_too_many_rows', { count: `${cells} cells in ${rows}`, limit });
    }
  });
  // Malformed XML is exceljs's to report (xlsx_invalid); the count goes on past it, which can only count more.
  parser.on('error', () => undefined);
  return (chunk, final) => {
    parser.write(decoder.decode(chunk, { stream: !final }));
    if (final) parser.close();
  };
}

/**
 * A workbook's parts, after the zip checks, with each worksheet's rows and cells counted while it is inflated
 * (a sheet over `bounds` refuses the file before the rest of it is inflated or anything is parsed).
 */
export function unzipWorkbook(
  bytes: Uint8Array,
  limits: ImportLimits,
  bounds: SheetBounds,
  where: Where,
): Map<string, Uint8Array> {
  // A worksheet is one entry however many rows it has; the row and cell counts bound it instead.
  const entries = unzipSafely(bytes, { ...limits, zipEntryBytes: limits.zipTotalBytes }, where, (path) =>
    WORKSHEET.test(path) ? sheetCounter(path, bounds, where) : null,
  );
  if (!entries.has('xl/workbook.xml')) refuse(where, 'xlsx_invalid', { detail: 'no xl/workbook.xml' });
  return entries;
}

/**
 * The workbook's parts as a zip listing the worksheets last, for exceljs to read: the parts counted, and only
 * those (the original bytes could hold entries its zip reader finds and ours did not). Listed last because
 * exceljs's streaming reader reads a sheet it meets once it knows the shared strings and relationships, and fails
 * when xl/workbook.xml comes after that sheet; a zip's order is the writer's choice (exceljs's own writer varies
 * it). The parts are stored uncompressed: this copy lives only while it is read.
 */
export function sheetsLast(entries: Map<string, Uint8Array>): Uint8Array {
  const rank = (path: string) => (path.includes('xl/worksheets/') ? 1 : 0);
  const paths = [...entries.keys()].sort((a, b) => rank(a) - rank(b));
  return zipSync(Object.fromEntries(paths.map((p) => [p, [entries.get(p)!, { level: 0 }]])));
}

/**
 * Reads a workbook. Each worksheet's rows and cells are counted while it is inflated (a sheet over the limits is
 * refused at once), after the zip checks: nothing is parsed by exceljs before that.
 */
export async function importXlsx(
  bytes: Uint8Array,
  limits: ImportLimits,
  where: Where,
): Promise<{ questions: Draft[]; problems: Problem[] }> {
  const entries = unzipWorkbook(
    bytes,
    limits,
    { rows: limits.sheetRows, cells: limits.sheetRows * COLUMNS.length },
    where,
  );
  const parts = sheetsLast(entries);
  entries.clear();
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(
      Buffer.from(parts.buffer, parts.byteOffset, parts.byteLength) as unknown as ExcelJS.Buffer,
    );
  } catch (e) {
    if (e instanceof Refusal) throw e;
    refuse(where, 'xlsx_invalid', { detail: e instanceof Error ? e.message : String(e) });
  }
  const sheets: SheetRows[] = workbook.worksheets.map((ws) => {
    const rows: SheetRows['rows'] = [];
    ws.getSheetValues().forEach((values, n) => {
      if (!Array.isArray(values)) return;
      const cells = values.slice(1).map((v) => cellText(v as ExcelJS.CellValue).trim());
      if (cells.some((c) => c !== '')) rows.push({ n, cells });
    });
    return { name: ws.name, rows };
  });
  return readSheets(sheets, limits, where);
}

const QUESTIONS_SHEET = { zh: '题目', en: 'Questions' };

/** A workbook with the questions sheet: bold frozen header, sensible widths, dropdowns on 题型 and 难度. */
function questionsWorkbook(lang: 'zh' | 'en', rows: string[][]): ExcelJS.Workbook {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Examhall';
  const ws = workbook.addWorksheet(QUESTIONS_SHEET[lang], { views: [{ state: 'frozen', ySplit: 1 }] });
  ws.addRow(headerRow(lang)).font = { bold: true };
  for (const r of rows) ws.addRow(r);
  ws.columns.forEach((c, i) => {
    const field = COLUMNS[i]?.field;
    c.width = field === 'stem' ? 48 : field === 'option' || field === 'answer' || field === 'explanation' ? 22 : 12;
  });
  const last = Math.max(rows.length + 1, 1000);
  const col = (field: string) => columnLetter(COLUMNS.findIndex((c) => c.field === field));
  // exceljs keeps data validations by address; a range address becomes one sqref in the file.
  const validations = (ws as unknown as { dataValidations: { add(a: string, v: ExcelJS.DataValidation): void } })
    .dataValidations;
  validations.add(`${col('type')}2:${col('type')}${last}`, {
    type: 'list',
    allowBlank: true,
    formulae: [`"${TYPE_VALUES.join(',')}"`],
    showErrorMessage: true,
    errorTitle: '题型 Type',
    error: '请从列表中选择题型 / Choose a type from the list',
  });
  validations.add(`${col('difficulty')}2:${col('difficulty')}${last}`, {
    type: 'list',
    allowBlank: true,
    formulae: [`"${DIFFICULTY_VALUES.join(',')},1,2,3,4,5"`],
    showErrorMessage: true,
    errorTitle: '难度 Difficulty',
    error: '请选择 简单/较易/中等/较难/困难 或 1-5 / Choose a difficulty or 1-5',
  });
  return workbook;
}

/** Drafts as an xlsx workbook in the one-row-per-question layout (the layout the template uses). */
export async function exportXlsx(drafts: Draft[]): Promise<{ bytes: Uint8Array; problems: Problem[] }> {
  const { rows, problems } = questionRows(drafts, 'Excel');
  const buffer = await questionsWorkbook('zh', rows).xlsx.writeBuffer();
  return { bytes: new Uint8Array(buffer as ArrayBuffer), problems };
}

/**
 * The template to download: the questions sheet with a worked example of every kind (the kinds a sheet cannot
 * carry are there too, and say so when imported), dropdowns for 题型 and 难度, and an instructions sheet in Chinese
 * with English.
 */
export async function questionTemplate(lang: 'zh' | 'en' = 'zh'): Promise<Uint8Array> {
  const workbook = questionsWorkbook(lang, TEMPLATE_EXAMPLES);
  const help = workbook.addWorksheet(lang === 'zh' ? '说明' : 'Instructions');
  help.columns = [{ width: 18 }, { width: 70 }, { width: 70 }];
  for (const line of TEMPLATE_INSTRUCTIONS) {
    const row = help.addRow(line.cells);
    if (line.heading) row.font = { bold: true };
    row.alignment = { wrapText: true, vertical: 'top' };
  }
  const buffer = await workbook.xlsx.writeBuffer();
  return new Uint8Array(buffer as ArrayBuffer);
}
