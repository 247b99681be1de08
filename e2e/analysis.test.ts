import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { seedFinishedAttempts, seedResultsExam } from '../packages/server/src/bench/resultsSeed.js';
import { openDb } from '../packages/server/src/db/database.js';
import { ITEM_ALPHA, ITEM_ATTEMPTS, ITEM_QUESTIONS } from '../packages/server/src/test/itemFixture.js';
import { describeViolations, scanA11y } from './support/a11y.js';
import { browserAvailable, newPage } from './support/browser.js';
import { staffLogin } from './support/console.js';
import { useJourney } from './support/journey.js';
import { ADMIN } from './support/server.js';

describe.runIf(browserAvailable())('item analysis journey', () => {
  const j = useJourney();

  /** The hand-computed exam's ten finished attempts, written to the server's database; its author is the admin. */
  async function seed() {
    const handle = openDb({ sqliteFile: path.join(j.server.dataDir, 'examhall.sqlite') });
    try {
      const admin = await handle.db
        .selectFrom('staff')
        .select('id')
        .where('phone', '=', ADMIN.phone)
        .executeTakeFirstOrThrow();
      const exam = await seedResultsExam(handle.db, {
        questions: ITEM_QUESTIONS,
        now: Date.now(),
        authorId: admin.id,
        name: '校招笔试 分析',
      });
      await seedFinishedAttempts(handle.db, exam, ITEM_ATTEMPTS, { now: Date.now() });
      return exam;
    } finally {
      await handle.db.destroy();
    }
  }

  it('shows every figure with its definition, sorts and filters on the server, and flags the question to its author', async () => {
    const { context, page, consoleErrors } = await newPage(j.browser, j.server.baseUrl);
    // Logging in first creates the admin's account, the seeded questions' author.
    await staffLogin(page, ADMIN, '/admin/grading');
    const exam = await seed();

    // From the grading exam page to its analysis.
    await page.goto(`/admin/grading/${exam.examId}`);
    await page.getByTestId('grading-analysis-link').click();
    await page.waitForURL(new RegExp(`/admin/analysis/${exam.examId}$`));
    const table = page.getByTestId('analysis-table');
    await table.waitFor();
    const alpha = page.getByTestId('analysis-alpha');
    expect(Number(await alpha.getAttribute('data-alpha'))).toBeCloseTo(ITEM_ALPHA, 10);
    expect(await alpha.textContent()).toContain('-0.356');
    expect(await page.getByTestId('analysis-row-4').getAttribute('data-flagged')).toBe('true');
    expect(await page.getByTestId('analysis-row-1').getAttribute('data-flagged')).toBe('false');
    expect(await page.getByTestId('analysis-upper_lower-4').textContent()).toBe('-1.00');
    expect(await page.getByTestId('analysis-facility-1').textContent()).toBe('0.60');
    await page.getByTestId('analysis-flag-4').waitFor();
    // Q1's option shares: the key's bar and no answer as its own share.
    expect(await page.getByTestId('analysis-row-1').getByTestId('analysis-option-A').textContent()).toContain('60%');
    expect(await page.getByTestId('analysis-row-1').getByTestId('analysis-option-none').textContent()).toContain('10%');

    // Sorting by the item-rest correlation goes to the server and lands in the address.
    await table.getByRole('columnheader', { name: /题总相关/ }).click();
    await page.waitForURL(/sort=item_rest&order=asc/);
    await expect
      .poll(async () => table.locator('tbody tr[data-testid^="analysis-row-"]').first().getAttribute('data-testid'))
      .toBe('analysis-row-4');
    await page.getByTestId('analysis-flagged-only').click();
    await page.waitForURL(/flagged=1/);
    await expect.poll(() => table.locator('tbody tr[data-testid^="analysis-row-"]').count()).toBe(1);

    const violations = await scanA11y(page);
    expect(violations, describeViolations('item analysis', violations)).toEqual([]);

    // The author's home and bank show the flag.
    await page.goto('/admin');
    await page.getByTestId('home-flagged-questions').getByRole('link').click();
    await page.waitForURL(/\/admin\/questions\?author=\d+&flagged=1/);
    await page.getByTestId(`bank-flag-${exam.bankQuestionIds[3]}`).waitFor();
    expect(await page.locator('[data-testid^="bank-flag-"]').count()).toBe(1);
    await page.getByTestId(`bank-open-${exam.bankQuestionIds[3]}`).click();
    await page.getByTestId('question-flag').waitFor();
    expect(await page.getByTestId('question-flag').textContent()).toContain('校招笔试 分析');

    expect(consoleErrors.filter((e) => !/status of 4\d\d/.test(e))).toEqual([]);
    await context.close();
  });
});
