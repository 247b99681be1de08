/**
 * The console without a mouse: an author builds an exam of a bank question and publishes it, reaching every
 * control by Tab and pressing it with Enter or Space. A control Tab never reaches fails the journey.
 */
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserAvailable, newPage } from './support/browser.js';
import { staffCall, staffLogin } from './support/console.js';
import { useJourney } from './support/journey.js';
import { ADMIN } from './support/server.js';

/** Most Tab presses to reach a control. */
const MAX_TABS = 250;

/** Presses Tab until `target` (or what is inside it) has the focus; fails when it never does. */
async function tabTo(page: Page, target: Locator, label: string): Promise<void> {
  const handle = await target.elementHandle();
  if (!handle) throw new Error(`${label}: not on the page`);
  for (let i = 0; i < MAX_TABS; i++) {
    if (await handle.evaluate((el) => el === document.activeElement || el.contains(document.activeElement))) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`${label}: not reached by ${MAX_TABS} presses of Tab`);
}

describe.runIf(browserAvailable())('the console by keyboard alone', () => {
  const j = useJourney();

  it('an author builds an exam of a bank question and publishes it without the mouse', async () => {
    const { context, page } = await newPage(j.browser, j.server.baseUrl, { viewport: { width: 1440, height: 900 } });
    try {
      await staffLogin(page, ADMIN, '/admin');
      // A question in the bank to build the exam of (the bank's editors are the console journey's).
      await staffCall(page, '/admin/bank/questions', {
        question: {
          kind: 'single',
          content: {
            stem: '<p>键盘：1 + 1 = ?</p>',
            options: [
              { id: 'A', content: '2' },
              { id: 'B', content: '3' },
            ],
          },
          key: { option: 'A' },
        },
        default_score: 10,
      });

      await tabTo(page, page.getByTestId('nav-exams'), 'the menu link to exams');
      await page.keyboard.press('Enter');
      await tabTo(page, page.getByTestId('exam-new'), 'new exam');
      await page.keyboard.press('Enter');
      const name = page.getByTestId('exam-create-name');
      await expect.poll(() => name.evaluate((input) => input === document.activeElement)).toBe(true);
      await page.keyboard.type('键盘校招笔试');
      await tabTo(page, page.getByTestId('exam-create-submit'), 'create');
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/admin\/exams\/\d+/);
      await page.getByTestId('exam-editor').waitFor();

      // The questions tab: a fixed section, the question picked into it.
      // By its id: antd adds a live region to the focused tab, which changes its name.
      const tab = page.locator('[role="tab"][id$="-tab-sections"]');
      // Tabs are one stop (the selected tab); the arrows move between them.
      await tabTo(page, page.getByRole('tab', { selected: true }), 'the tabs');
      for (let i = 0; i < 10 && !(await tab.evaluate((el) => el === document.activeElement)); i++) {
        await page.keyboard.press('ArrowRight');
      }
      await page.keyboard.press('Enter');
      await expect.poll(() => tab.getAttribute('aria-selected')).toBe('true');
      await tabTo(page, page.getByTestId('section-add-fixed'), 'add a fixed section');
      await page.keyboard.press('Enter');
      await tabTo(page, page.getByTestId('section-pick-0'), 'pick questions');
      await page.keyboard.press('Enter');
      const picker = page.getByTestId('question-picker');
      await picker.locator('tr.ant-table-row').first().waitFor();
      await tabTo(page, picker.locator('tr.ant-table-row').first().getByRole('checkbox'), 'the first question');
      await page.keyboard.press('Space');
      await tabTo(page, picker.getByTestId('picker-add'), 'add the picked questions');
      await page.keyboard.press('Enter');
      await picker.waitFor({ state: 'detached' });

      await tabTo(page, page.getByTestId('exam-save'), 'save');
      await page.keyboard.press('Enter');
      await page.getByTestId('exam-dirty').waitFor({ state: 'detached' });
      await tabTo(page, page.getByTestId('exam-publish'), 'publish');
      await page.keyboard.press('Enter');
      await tabTo(page, page.getByTestId('exam-publish-confirm'), 'confirm publishing');
      await page.keyboard.press('Enter');
      await page.locator('[data-testid="exam-status"][data-status="published"]').waitFor({ timeout: 60_000 });
    } finally {
      await context.close();
    }
  }, 180_000);
});
