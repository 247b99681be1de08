import { randomUUID } from 'node:crypto';
import { detail } from '@examhall/contract';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { describeViolations, scanA11y } from './support/a11y.js';
import { browserAvailable, newPage } from './support/browser.js';
import { api, candidateToken, enterByApi } from './support/candidate.js';
import { useJourney } from './support/journey.js';
import { staffLogin } from './support/console.js';
import { ADMIN, DEMO_PHONE } from './support/server.js';

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

  it('passes an axe scan on the staff login and the proctor console', async () => {
    const { scan, check } = scanner();
    // An attempt at the demo exam, for the live grid and the attempt drawer.
    const auth = await candidateToken(j.server, DEMO_PHONE);
    const exams = await api<{ list: { id: number; anid: number }[] }>(j.server, auth, 'GET', '/exam/index');
    const { id: examId, anid } = exams.list[0]!;
    await enterByApi(j.server, auth, examId, anid);
    // A flag with a detail, so the drawer's timeline shows a record in words with its decision form.
    const flagged = await fetch(`${j.server.baseUrl}/api/monitor/record-risk?auth=${auth}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        exam_id: String(examId),
        risk: '11',
        trigger_time: String(Date.now()),
        detail: detail.faces(2),
        client_id: randomUUID(),
      }).toString(),
    });
    expect(flagged.status).toBe(200);
    const { context, page } = await newPage(j.browser, j.server.baseUrl);
    try {
      await page.goto('/admin/login');
      await page.getByTestId('staff-phone').waitFor();
      await scan(page, 'staff login');
      await page.getByTestId('staff-phone').fill(ADMIN.phone);
      await page.getByTestId('staff-password').fill(ADMIN.password);
      await page.getByTestId('staff-login-submit').click();
      await page.getByTestId('admin-console').waitFor();
      await scan(page, 'console');
      await page.getByTestId('nav-proctoring').click();
      const exam = page.getByTestId(`proctor-exam-${examId}`);
      await exam.waitFor();
      await scan(page, 'proctoring: exams');
      await exam.click();
      const tile = page.locator('.proctor-tile').first();
      await tile.waitFor();
      await scan(page, 'proctoring: live grid');
      await tile.focus();
      await page.keyboard.press('Enter');
      await page.getByTestId('proctor-attempt').waitFor();
      await page.getByTestId('proctor-id-photo').waitFor();
      await scan(page, 'proctoring: attempt');
    } finally {
      await context.close();
    }
    check();
  }, 120_000);

  it("passes an axe scan on the console's pages: exams and the exam editor's tabs, the bank and every editor, staff, audit", async () => {
    const { scan, check } = scanner();
    const { context, page } = await newPage(j.browser, j.server.baseUrl);
    try {
      await staffLogin(page, ADMIN, '/admin/staff?tab=teams');
      // A team, so the audit log has a change to show.
      await page.getByTestId('team-create-name').fill('无障碍 A11y');
      await page.getByTestId('team-create-submit').click();
      await page.getByTestId('teams-table').getByText('无障碍 A11y').waitFor();
      await scan(page, 'staff: teams');
      await page.getByRole('tab', { name: '账号', exact: true }).click();
      await page.getByTestId('staff-table').getByText(ADMIN.phone).waitFor();
      await scan(page, 'staff: accounts');

      await page.getByTestId('nav-audit').click();
      const entry = page.getByTestId('audit-table').locator('tr.ant-table-row').first();
      await entry.waitFor();
      await scan(page, 'audit');
      await entry.locator('.ant-table-row-expand-icon').click();
      await page.getByTestId('audit-table').locator('tr.ant-table-expanded-row').first().waitFor();
      await scan(page, 'audit: a change');

      // The bank, and the editor of every kind the demo has (the demo seed holds one question of each).
      await page.getByTestId('nav-questions').click();
      const rows = page.getByTestId('bank-table').locator('tr.ant-table-row');
      await rows.first().waitFor();
      await scan(page, 'bank');
      const ids = await page
        .getByTestId('bank-table')
        .locator('[data-testid^="bank-edit-"]')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')!.replace('bank-edit-', '')));
      expect(ids.length).toBeGreaterThan(10);
      for (const id of ids) {
        await page.getByTestId(`bank-edit-${id}`).click();
        const editor = page.getByTestId('question-editor');
        await editor.waitFor();
        // The lazily loaded text and code editors are in.
        await expect.poll(() => editor.locator('.ant-spin-spinning, [data-loading]').count()).toBe(0);
        await scan(page, `question editor: ${await editor.getAttribute('data-kind')} #${id}`);
        await page.getByTestId('question-close').click();
        await editor.waitFor({ state: 'detached' });
      }
      await page.getByTestId('bank-new').click();
      await page.getByTestId('question-editor').waitFor();
      await scan(page, 'question editor: new');
      await page.getByTestId('question-close').click();
      await page.getByTestId('question-editor').waitFor({ state: 'detached' });

      // The demo exam in the editor, tab by tab.
      await page.getByTestId('nav-exams').click();
      const open = page.getByTestId('exam-table').locator('[data-testid^="exam-open-"]').first();
      await open.waitFor();
      await scan(page, 'exams');
      await open.click();
      await page.getByTestId('exam-editor').waitFor();
      const loading = page
        .locator('.ant-tabs-tabpane-active')
        .locator('.ant-skeleton, .ant-spin-spinning, [data-loading]');
      for (const tab of await page.getByTestId('exam-editor').getByRole('tab').all()) {
        const name = (await tab.textContent()) ?? '';
        await tab.click();
        await expect.poll(() => tab.getAttribute('aria-selected')).toBe('true');
        await expect.poll(() => loading.count()).toBe(0);
        await scan(page, `exam editor: ${name}`);
      }
      // A draw section's rule and the bank's picker of a fixed section (changes left unsaved).
      await page.getByRole('tab', { name: '题目', exact: true }).click();
      await page.getByTestId('section-add-draw').click();
      await page.locator('[data-testid$="-draw-summary"]').waitFor();
      await scan(page, 'exam editor: a draw section');
      await page.getByTestId('section-pick-0').click();
      await page.getByTestId('question-picker').locator('tr.ant-table-row').first().waitFor();
      await scan(page, 'exam editor: picking questions');
    } finally {
      await context.close();
    }
    check();
  }, 180_000);
});
