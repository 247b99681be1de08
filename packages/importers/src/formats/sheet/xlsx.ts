/** Excel workbooks: read (after the zip checks and a row count), written in the one-row-per-question layout. */
import ExcelJS from 'exceljs';
import { Unzip, UnzipInflate } from 'fflate';
import { refuse, Refusal } from '../../problems.js';
import type { Draft, ImportLimits, Problem, Where } from '../../types.js';
import { unzipSafely } from '../../zip.js';
import { columnLetter, DIFFICULTY_VALUES, TYPE_VALUES } from './columns.js';
import { readSheets, type SheetRows } from './read.js';
import { TEMPLATE_EXAMPLES, TEMPLATE_INSTRUCTIONS } from './template.js';
import { COLUMNS, headerRow, questionRows } from './write.js';

/** Counts `<row` and `<c` tags in a worksheet's XML without parsing it. */
function countTags(xml: Uint8Array): { rows: number; cells: number } {
  const buf = Buffer.from(xml.buffer, xml.byteOffset, xml.byteLength);
  let rows = 0;
  let cells = 0;
  for (let i = buf.indexOf('<', 0); i >= 0; i = buf.indexOf('<', i + 1)) {
    const a = buf[i + 1];
    const b = buf[i + 2];
    const c = buf[i + 3];
    const d = buf[i + 4];
    if (a === 0x72 && b === 0x6f && c === 0x77 && (d === 0x20 || d === 0x3e)) rows++;
    else if (a === 0x63 && (b === 0x20 || b === 0x3e)) cells++;
  }
  return { rows, cells };
}

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

const WORKSHEET = /^xl\/worksheets\/[^/]+\.xml$/;

/**
 * Counts each worksheet's rows while inflating it in a stream, keeping nothing: a sheet with a million rows is
 * refused when the count passes the limit, before the rest of it is inflated or anything is parsed.
 */
export function countRowsStreaming(bytes: Uint8Array, limits: ImportLimits, where: Where): void {
  let over: { path: string; rows: number } | null = null;
  let inflated = 0;
  const unzip = new Unzip((file) => {
    if (!WORKSHEET.test(file.name) || over) return;
    let rows = 0;
    let tail = '';
    file.ondata = (err, data) => {
      if (err || over) return;
      inflated += data.length;
      // The previous chunk's last four characters cannot hold a whole `<row ` tag, so nothing is counted twice.
      const text = tail + Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('latin1');
      rows += text.match(/<row[ >]/g)?.length ?? 0;
      tail = text.slice(-4);
      if (rows > limits.sheetRows || inflated > limits.zipTotalBytes) {
        over = { path: file.name, rows };
        file.terminate();
      }
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  const step = 64 * 1024;
  try {
    for (let i = 0; i < bytes.length && !over; i += step)
      unzip.push(bytes.subarray(i, i + step), i + step >= bytes.length);
  } catch {
    // A broken zip is reported by unzipSafely, which runs next.
  }
  const found = over as { path: string; rows: number } | null;
  if (found) {
    if (found.rows <= limits.sheetRows)
      refuse({ ...where, file: found.path }, 'zip_bomb', { detail: `over ${limits.zipTotalBytes} bytes` });
    refuse({ ...where, file: found.path }, 'sheet_too_many_rows', {
      count: `${limits.sheetRows}+`,
      limit: limits.sheetRows,
    });
  }
}

/**
 * Reads a workbook. Each worksheet's rows are counted while streaming (a sheet over the row limit is refused at
 * once), then the zip checks run and the cells are counted: nothing is parsed by exceljs before that.
 */
export async function importXlsx(
  bytes: Uint8Array,
  limits: ImportLimits,
  where: Where,
): Promise<{ questions: Draft[]; problems: Problem[] }> {
  countRowsStreaming(bytes, limits, where);
  // A worksheet is one entry however many rows it has; the row and cell counts bound it instead.
  const entries = unzipSafely(bytes, { ...limits, zipEntryBytes: limits.zipTotalBytes }, where);
  if (!entries.has('xl/workbook.xml')) refuse(where, 'xlsx_invalid', { detail: 'no xl/workbook.xml' });
  for (const [path, xml] of entries) {
    if (!WORKSHEET.test(path)) continue;
    const { rows, cells } = countTags(xml);
    if (rows > limits.sheetRows)
      refuse({ ...where, file: path }, 'sheet_too_many_rows', { count: rows, limit: limits.sheetRows });
    if (cells > limits.sheetRows * COLUMNS.length)
      refuse({ ...where, file: path }, 'sheet_too_many_rows', {
        count: `${cells} cells in ${rows}`,
        limit: limits.sheetRows,
      });
  }
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(Buffer.from(bytes) as unknown as ExcelJS.Buffer);
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
