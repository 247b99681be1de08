import { describe, it } from 'vitest';
import { QUESTION_KINDS } from '@examhall/contract';
import { browserAvailable, newPage } from './support/browser.js';
import { chooseByIndex, staffLogin } from './support/console.js';
import { useJourney } from './support/journey.js';
import { ADMIN } from './support/server.js';

describe.runIf(browserAvailable())('scratch', () => {
  const j = useJourney();
  it('blanks', async () => {
    const { page } = await newPage(j.browser, j.server.baseUrl);
    await staffLogin(page, ADMIN, '/admin/questions');
    await page.getByTestId('bank-new').click();
    const editor = page.getByTestId('question-editor');
    await chooseByIndex(page, editor.getByTestId('kind-select'), QUESTION_KINDS.indexOf('fill_blank'));
    await page.locator(`[data-testid="question-editor"][data-kind="fill_blank"]`).waitFor();
    await editor.getByTestId('stem-editor').fill('stem ___ and ___');
    const sel = editor.getByTestId('blank-variants-0');
    await sel.click();
    for (const v of ['北京', 'Beijing']) {
      await page.keyboard.type(v);
      await page.screenshot({ path: `/tmp/x/s-typed-${v}.png` });
      await page.keyboard.press('Enter');
      await page.screenshot({ path: `/tmp/x/s-enter-${v}.png` });
      console.log('items', await sel.locator('.ant-select-selection-item').allTextContents());
    }
    await page.keyboard.press('Tab');
    console.log('after tab', await sel.locator('.ant-select-selection-item').allTextContents());
    await page.screenshot({ path: `/tmp/x/s-tab.png` });
  }, 60_000);
});
