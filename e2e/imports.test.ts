import fs from 'node:fs';
import { importFile } from '@examhall/importers';
import { describe, expect, it } from 'vitest';
import { describeViolations, scanA11y } from './support/a11y.js';
import { browserAvailable, newPage } from './support/browser.js';
import { staffCall, staffLogin } from './support/console.js';
import { useJourney } from './support/journey.js';
import { ADMIN } from './support/server.js';

/** A GIFT file of three questions; the second one's answer block is never closed when `broken`. */
function giftFile(broken: boolean): string {
  return [
    '// [tag:network]',
    '$CATEGORY: Networks',
    '',
    '::Status:: Which status code means "not found"? {=404 ~200 ~500}',
    '',
    `::Stateless:: HTTP is a stateless protocol. {T${broken ? '' : '}'}`,
    '',
    '::Port:: The default port of HTTPS is {=443}.',
    '',
  ].join('\n');
}

describe.runIf(browserAvailable())('question import and export journey', () => {
  const j = useJourney();

  it('an author previews a GIFT file, sees the broken question located, fixes it, imports, and exports Moodle XML', async () => {
    const { context, page, consoleErrors } = await newPage(j.browser, j.server.baseUrl);
    await staffLogin(page, ADMIN, '/admin/questions');
    const folderId = (await staffCall<{ id: number }>(page, '/admin/bank/folders', { name: '导入测试' })).id;
    await page.goto(`/admin/questions?folder=${folderId}`);

    await page.getByTestId('bank-import').click();
    const drawer = page.locator('.ant-drawer');
    const fileInput = drawer.locator('input[type=file]');
    const send = (broken: boolean) =>
      fileInput.setInputFiles({ name: 'network.gift', mimeType: 'text/plain', buffer: Buffer.from(giftFile(broken)) });

    // The broken file: the two readable questions are shown, the third is named by its line, in Chinese.
    await send(true);
    await page.getByTestId('import-summary').waitFor();
    const errors = page.locator('[data-testid=import-problem][data-severity=error]');
    await expect.poll(() => errors.count()).toBe(1);
    expect(await errors.first().textContent()).toContain('第 6 行');
    expect(await page.getByTestId('import-row').count()).toBe(2);
    expect(await page.getByTestId('import-commit').isDisabled()).toBe(true);
    // The stem keeps the widest column, its heading on one line (it was squeezed to two characters a line).
    const heading = page.getByTestId('import-preview').getByRole('columnheader', { name: '题目', exact: true });
    const headingBox = (await heading.boundingBox())!;
    expect(headingBox.width).toBeGreaterThanOrEqual(300);
    const headingLines = await heading.evaluate((el) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      return new Set(Array.from(range.getClientRects(), (r) => Math.round(r.top))).size;
    });
    expect(headingLines).toBe(1);
    // A row opens to the question as candidates will see it.
    await page.getByTestId('import-preview').locator('.ant-table-row-expand-icon').first().click();
    await page.getByTestId('import-rendered').first().waitFor();
    expect(await page.getByTestId('import-rendered').first().textContent()).toContain('not found');
    const violations = await scanA11y(page, '.ant-drawer-content-wrapper');
    expect(violations, describeViolations('import preview', violations)).toEqual([]);

    // The fixed file: three questions, no error; imported with a tag of the author's.
    await send(false);
    await expect.poll(() => page.getByTestId('import-row').count()).toBe(3);
    expect(await errors.count()).toBe(0);
    await page.getByTestId('import-tags').click();
    await page.keyboard.type('2025 春招');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Escape');
    await page.getByTestId('import-commit').click();
    await page.locator('.ant-message').getByText('已导入 3 道题').waitFor();

    // The bank shows them: the category became a sub-folder of the target.
    const rows = page.getByTestId('bank-table').locator('tbody tr.ant-table-row');
    await expect.poll(() => rows.count()).toBe(3);
    expect(await page.getByTestId('bank-table').textContent()).toContain('2025 春招');

    // Export the folder as Moodle XML: the download is a file the importers read back whole.
    await page.getByTestId('bank-export').click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('export-format-moodle_xml').click(),
    ]);
    expect(download.suggestedFilename()).toBe(`folder-${folderId}.xml`);
    const bytes = fs.readFileSync((await download.path())!);
    const back = await importFile({ name: download.suggestedFilename(), bytes });
    expect(back.format).toBe('moodle_xml');
    expect(back.problems.filter((p) => p.severity === 'error')).toEqual([]);
    expect(back.questions.map((q) => q.question.kind).sort()).toEqual(['fill_blank', 'single', 'true_false']);
    expect(back.questions.every((q) => q.folder.join('/') === 'Networks')).toBe(true);

    expect(consoleErrors.filter((e) => !/status of 4\d\d/.test(e))).toEqual([]);
    await context.close();
  });
});
