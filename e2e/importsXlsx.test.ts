import fs from 'node:fs';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { browserAvailable, newPage } from './support/browser.js';
import { staffCall, staffLogin } from './support/console.js';
import { useJourney } from './support/journey.js';
import { ADMIN } from './support/server.js';

/** Questions of four kinds by the template's Chinese headers; the single choice's answer E names no option. */
const ROWS: Record<string, string>[] = [
  { 题型: '单选题', 题干: 'HTTP 中表示“未找到”的状态码是？', 选项A: '200', 选项B: '404', 选项C: '500', 答案: 'E' },
  { 题型: '多选题', 题干: '以下哪些是 HTTP 方法？', 选项A: 'GET', 选项B: 'PUT', 选项C: 'FETCH', 答案: 'AB', 分值: '4' },
  { 题型: '判断题', 题干: 'HTTP 是无状态协议。', 答案: '正确' },
  { 题型: '填空题', 题干: 'HTTPS 的默认端口是 ___。', 答案: '443' },
];

/** Replaces the template's examples with ROWS, keeping its header (and its dropdowns and widths); answers each header's column. */
function fillIn(sheet: ExcelJS.Worksheet): Map<string, number> {
  const columns = new Map<string, number>();
  sheet.getRow(1).eachCell((cell, col) => columns.set(String(cell.value), col));
  // Emptied rather than spliced: exceljs's spliceRows leaves some of the rows it moves behind.
  for (let r = 2; r <= sheet.rowCount; r++) sheet.getRow(r).eachCell((cell) => (cell.value = null));
  ROWS.forEach((values, i) => {
    const row = sheet.getRow(i + 2);
    for (const [header, value] of Object.entries(values)) {
      const col = columns.get(header);
      if (col === undefined) throw new Error(`the template has no column ${header}`);
      row.getCell(col).value = value;
    }
    row.commit();
  });
  return columns;
}

describe.runIf(browserAvailable())('Excel question import journey', () => {
  const j = useJourney();

  it('an author downloads the template, fills it in, sees the wrong answer located, fixes it and imports', async () => {
    const { context, page, consoleErrors } = await newPage(j.browser, j.server.baseUrl);
    await staffLogin(page, ADMIN, '/admin/questions');
    const folderId = (await staffCall<{ id: number }>(page, '/admin/bank/folders', { name: 'Excel 导入' })).id;
    await page.goto(`/admin/questions?folder=${folderId}`);

    await page.getByTestId('bank-import').click();
    const drawer = page.locator('.ant-drawer');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('import-template').click()]);
    expect(download.suggestedFilename()).toBe('题目导入模板.xlsx');

    const workbook = new ExcelJS.Workbook();
    // exceljs types its input as an old Buffer that today's Node types no longer match.
    await workbook.xlsx.load(fs.readFileSync((await download.path())!) as unknown as ExcelJS.Buffer);
    const sheet = workbook.getWorksheet('题目');
    expect(sheet, 'the template has a 题目 sheet').toBeDefined();
    const columns = fillIn(sheet!);
    const answerColumn = sheet!.getColumn(columns.get('答案')!).letter;

    const fileInput = drawer.locator('input[type=file]');
    const send = async () =>
      fileInput.setInputFiles({
        name: 'http.xlsx',
        mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        buffer: Buffer.from(await workbook.xlsx.writeBuffer()),
      });

    // The wrong answer is named by its sheet row and the 答案 column, in Chinese, and nothing can be imported.
    await send();
    await page.getByTestId('import-summary').waitFor();
    const errors = page.locator('[data-testid=import-problem][data-severity=error]');
    await expect.poll(() => errors.count()).toBe(1);
    const problem = await errors.first().textContent();
    expect(problem).toContain(`第 2 行 ${answerColumn} 列`);
    expect(problem).toContain('答案 E 不在选项中');
    expect(await page.getByTestId('import-row').count()).toBe(3);
    expect(await page.getByTestId('import-commit').isDisabled()).toBe(true);

    // Fixed in the workbook and sent again: four questions, no error, imported.
    sheet!.getCell(`${answerColumn}2`).value = 'B';
    await send();
    await expect.poll(() => errors.count()).toBe(0);
    await expect.poll(() => page.getByTestId('import-row').count()).toBe(4);
    await page.getByTestId('import-commit').click();
    await page.locator('.ant-message').getByText('已导入 4 道题').waitFor();

    const table = page.getByTestId('bank-table');
    await expect.poll(() => table.locator('tbody tr.ant-table-row').count()).toBe(4);
    const listed = await table.textContent();
    for (const row of ROWS) expect(listed).toContain(row['题干']!.slice(0, 12));

    expect(consoleErrors.filter((e) => !/status of 4\d\d/.test(e))).toEqual([]);
    await context.close();
  });
});
