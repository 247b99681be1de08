import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { describeViolations, scanA11y } from './support/a11y.js';
import { browserAvailable, newPage } from './support/browser.js';
import { completeProfile, loginAs } from './support/candidate.js';
import { useJourney } from './support/journey.js';
import { passMonitorChecks } from './support/monitor.js';

describe.runIf(browserAvailable())('accessibility', () => {
  const j = useJourney();

  /** Scans the page as it is now and collects what is broken, so one run reports every page. */
  function scanner() {
    const found: string[] = [];
    return {
      scan: async (page: Page, where: string) => {
        const violations = await scanA11y(page);
        if (violations.length > 0) found.push(describeViolations(where, violations));
      },
      check: () => expect(found, found.join('\n')).toEqual([]),
    };
  }

  it('passes an axe scan (WCAG 2.1 A and AA) on every candidate page and question, in Chinese and English', async () => {
    const { scan, check } = scanner();
    const { context, page } = await newPage(j.browser, j.server.baseUrl);
    try {
      await page.goto('/login');
      await page.getByTestId('phone-input').waitFor();
      await scan(page, 'login');
      await loginAs(page, j.server);
      await page.getByTestId('exam-name').first().waitFor();
      await scan(page, 'exam list');

      await page.getByTestId('exam-enter').first().click();
      await page.getByTestId('profile-form').waitFor();
      await scan(page, 'profile');
      await completeProfile(page);
      await page.getByTestId('entry-start').waitFor();
      await scan(page, 'exam entry');
      await page.getByTestId('entry-start').click();
      await page.waitForURL(/\/monitor$/);
      await scan(page, 'device checks');
      await passMonitorChecks(page);
      await page.waitForURL(/\/answer$/);

      // Every question, each type's renderer as the candidate sees it.
      const cells = page.getByTestId('card-item');
      await cells.first().waitFor();
      const count = await cells.count();
      expect(count).toBeGreaterThan(10);
      for (let i = 0; i < count; i++) {
        const id = await cells.nth(i).getAttribute('data-id');
        await cells.nth(i).click();
        const question = page.locator(`[data-testid="question"][data-id="${id}"]`);
        await question.waitFor();
        await scan(page, `question ${i + 1} (type ${await question.getAttribute('data-type')})`);
      }

      await page.getByTestId('exam-submit').click();
      await page.getByTestId('submit-confirm').waitFor();
      await scan(page, 'submit confirmation');
      await page.getByTestId('submit-confirm').click();
      await page.waitForURL(/\/result$/);
      await page.getByTestId('result-title').waitFor();
      await scan(page, 'result');
      await page.getByTestId('integrity-toggle').click();
      await page.getByTestId('integrity-log').locator('.ant-table').waitFor();
      await scan(page, 'result with the integrity log');

      await page.getByTestId('lang-switch').click();
      await expect.poll(() => page.locator('html').getAttribute('lang')).toBe('en-US');
      await scan(page, 'result (English)');
      await page.goto('/exams');
      await page.getByTestId('exam-name').first().waitFor();
      await scan(page, 'exam list (English)');
    } finally {
      await context.close();
    }
    check();
  }, 240_000);
});
