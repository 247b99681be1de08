/**
 * Issue 28, item 6: the console for a screen reader and a keyboard. Forms mounted together keep their ids apart
 * (each label names its own field), select options and check boxes announce words, menu links are named by their
 * words alone, a page has one <main>, a link-styled control is reached by Tab, no control is named in English on a
 * Chinese page, and the bank table fits a 1440 px screen.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { describeViolations, scanA11y } from './support/a11y.js';
import { browserAvailable, newPage } from './support/browser.js';
import { publishOneQuestionExam, staffLogin } from './support/console.js';
import { useJourney } from './support/journey.js';
import { ADMIN } from './support/server.js';

/** Ids that more than one element of the page has. */
function duplicateIds(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const seen = new Map<string, number>();
    for (const el of Array.from(document.querySelectorAll('[id]'))) seen.set(el.id, (seen.get(el.id) ?? 0) + 1);
    return [...seen].filter(([, n]) => n > 1).map(([id]) => id);
  });
}

/** Landmarks nested in another of their kind, and how many <main> the page has. */
function landmarks(page: Page): Promise<{ mains: number; nested: number }> {
  return page.evaluate(() => ({
    mains: document.querySelectorAll('main, [role="main"]').length,
    nested: document.querySelectorAll('main main, main [role="main"], nav nav').length,
  }));
}

/** Names of controls in English that antd writes whatever the page's language. */
const ENGLISH_NAMES = /^(Increase Value|Decrease Value|Select row \d+|Row \d+ selected|Select all)$/;

async function englishNames(page: Page): Promise<string[]> {
  const names = await page.locator('[aria-label]').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')!));
  return names.filter((n) => ENGLISH_NAMES.test(n));
}

describe.runIf(browserAvailable())('the console for a screen reader and a keyboard (issue 28, item 6)', () => {
  const j = useJourney();

  it('names every field, option, link and check box in words, with one <main>, unique ids and a table that fits', async () => {
    const { context, page } = await newPage(j.browser, j.server.baseUrl, { viewport: { width: 1440, height: 900 } });
    const found: string[] = [];
    try {
      await staffLogin(page, ADMIN, '/admin/staff');
      await publishOneQuestionExam(page, { name: '校招笔试 无障碍', opensAt: Date.now(), minutes: 30 });
      // The account's form and then the team's: both stay mounted, each with a field named "name".
      await page.getByTestId('staff-create-name').waitFor();
      await page.getByRole('tab', { name: '团队', exact: true }).click();
      await page.getByTestId('team-create-name').waitFor();
      expect(await duplicateIds(page)).toEqual([]);
      await page.getByTestId('team-create-form').getByLabel('团队名称', { exact: true }).fill('无障碍组');
      expect(await page.getByTestId('team-create-name').inputValue()).toBe('无障碍组');
      expect(await page.getByTestId('staff-create-name').inputValue()).toBe('');

      // The menu's links are named by their words alone, and the page has one <main>, nested in none.
      await page.getByRole('link', { name: '概览', exact: true }).waitFor();
      expect(await landmarks(page)).toEqual({ mains: 1, nested: 0 });

      // A role's options announce the roles in words, never their values.
      await page.getByRole('tab', { name: '账号', exact: true }).click();
      await page.getByTestId('staff-create-role').click();
      const options = page.locator('[role="option"]');
      await options.first().waitFor();
      const spoken = await options.evaluateAll((els) =>
        els.map((e) => `${e.getAttribute('aria-label') ?? ''}|${(e.textContent ?? '').trim()}`),
      );
      expect(spoken.join(' ')).not.toMatch(/\b(admin|author|proctor|grader)\b/);
      expect(spoken.join(' ')).toContain('管理员');
      await page.keyboard.press('Escape');

      // The bank: check boxes and number fields named in Chinese, and the table inside a 1440 px screen.
      await page.getByTestId('nav-questions').click();
      await page.getByTestId('bank-table').locator('tr.ant-table-row').first().waitFor();
      await page.getByRole('checkbox', { name: '选择第 1 行' }).waitFor();
      expect(await englishNames(page)).toEqual([]);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      const table = await page.getByTestId('bank-table').boundingBox();
      expect(table!.x + table!.width).toBeLessThanOrEqual(1440);
      await page.getByTestId('bank-new').click();
      await page.getByTestId('question-editor').waitFor();
      expect(await englishNames(page)).toEqual([]);
      const v = await scanA11y(page, '.ant-drawer-content-wrapper');
      if (v.length > 0) found.push(describeViolations('question editor', v));
      await page.getByTestId('question-close').click();

      // The audit log: who did it is a button a keyboard reaches (an <a> without href is not).
      await page.getByTestId('nav-audit').click();
      const actor = page.getByTestId('audit-table').getByRole('button', { name: 'Administrator' }).first();
      await actor.waitFor();
      await actor.focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => new URL(page.url()).searchParams.get('actor_id')).not.toBeNull();
      expect(await landmarks(page)).toEqual({ mains: 1, nested: 0 });
      const audit = await scanA11y(page);
      if (audit.length > 0) found.push(describeViolations('audit', audit));
    } finally {
      await context.close();
    }
    expect(found, found.join('\n')).toEqual([]);
  }, 120_000);
});
