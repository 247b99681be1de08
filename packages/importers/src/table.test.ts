import { strToU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { readTable, writeTable } from './table.js';

const LIMITS = { fileBytes: 20 * 1024 * 1024, rows: 1000, columns: 50 };

/** The same workbook with its zip entries in `order` (entries not named keep their place after them). */
function reordered(bytes: Uint8Array, order: readonly string[]): Uint8Array {
  const entries = unzipSync(bytes);
  const paths = [...order, ...Object.keys(entries).filter((p) => !order.includes(p))];
  return zipSync(Object.fromEntries(paths.map((p) => [p, entries[p]!])));
}

/** A workbook of `rows` empty rows, each tag broken by `gap` before its attribute (`<row\nr="1"></row>`). */
function gappedRows(rows: number, gap: string): Uint8Array {
  const parts = ['<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'];
  for (let r = 1; r <= rows; r++) parts.push(`<row${gap}r="${r}"></row>`);
  parts.push('</sheetData></worksheet>');
  return zipSync(
    { 'xl/workbook.xml': strToU8('<workbook/>'), 'xl/worksheets/sheet1.xml': strToU8(parts.join('')) },
    { level: 6 },
  );
}

describe('readTable', () => {
  it.each([
    ['a line break', '\n'],
    ['a tab', '\t'],
    ['CR LF', '\r\n'],
  ])('refuses 250,000 empty rows with %s inside each tag at the row limit, before reading them', async (_, gap) => {
    const bytes = gappedRows(250_000, gap);
    const started = performance.now();
    const r = await readTable('gapped.xlsx', bytes, { fileBytes: 20 * 1024 * 1024, rows: 10_000, columns: 100 });
    expect(performance.now() - started).toBeLessThan(2000);
    expect(r.refused && [r.problem.code, r.problem.params.limit]).toEqual(['sheet_too_many_rows', 10_000]);
  });

  it('reads a workbook whose zip lists a worksheet before xl/workbook.xml', async () => {
    const written = await writeTable('xlsx', ['手机号', '姓名'], [['13800138000', '张三']]);
    // Shared strings and relationships first, then the sheet, the workbook last: the order that once failed.
    const bytes = reordered(written, [
      '[Content_Types].xml',
      '_rels/.rels',
      'xl/_rels/workbook.xml.rels',
      'xl/sharedStrings.xml',
      'xl/worksheets/sheet1.xml',
      'xl/workbook.xml',
    ]);
    const names = Object.keys(unzipSync(bytes));
    expect(names.indexOf('xl/worksheets/sheet1.xml')).toBeLessThan(names.indexOf('xl/workbook.xml'));
    const table = await readTable('list.xlsx', bytes, LIMITS);
    expect(table).toMatchObject({
      refused: false,
      format: 'xlsx',
      header: { n: 1, cells: ['手机号', '姓名'] },
      rows: [{ n: 2, cells: ['13800138000', '张三'] }],
    });
  });

  it('reads every workbook its own writer makes, whatever order the writer chose', async () => {
    for (let i = 0; i < 200; i++) {
      const bytes = await writeTable('xlsx', ['手机号'], [[`1380013${String(i).padStart(4, '0')}`]]);
      const table = await readTable('list.xlsx', bytes, LIMITS);
      expect(table.refused, JSON.stringify(table)).toBe(false);
    }
  });
});
