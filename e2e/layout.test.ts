/**
 * The candidate's pages at the sizes candidates use: the exam page and the result page at 1440×900 and
 * 1280×720 with no sideways scrolling (screenshots kept under e2e/screenshots/, out of git), section tabs on
 * one row, a language switch on the exam page, a notice on a narrow screen, and an exam list that offers the
 * result once the exam is handed in.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserAvailable, newPage } from './support/browser.js';
import { enterDemoExam, loginAs } from './support/candidate.js';
import { useJourney } from './support/journey.js';

const SIZES = [
  { width: 1440, height: 900 },
  { width: 1280, height: 720 },
] as const;
const SHOTS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'screenshots');

/** How far the page is wider than the window, in pixels (0 when nothing scrolls sideways). */
const overflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/** Takes the page's screenshot at each size and checks it never scrolls sideways. */
async function atEachSize(page: Page, name: string) {
  await mkdir(SHOTS, { recursive: true });
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await page.waitForTimeout(200);
    await page.screenshot({ path: path.join(SHOTS, `${name}-${size.width}x${size.height}.png`), fullPage: true });
    expect(await overflow(page), `${name} at ${size.width}×${size.height} scrolls sideways`).toBeLessThanOrEqual(0);
  }
}

describe.runIf(browserAvailable())("the candidate's pages at common sizes", () => {
  const j = useJourney();

  it('fit the window, keep the section tabs on one row, switch language, and tell a narrow screen what it needs', async () => {
    const { context, page, consoleErrors } = await newPage(j.browser, j.server.baseUrl);
    await loginAs(page, j.server);
    await enterDemoExam(page);

    await atEachSize(page, 'exam');
    const tops = await page
      .getByTestId('section-tab')
      .evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().top)));
    expect(tops.length).toBeGreaterThan(1);
    expect(new Set(tops).size, 'section tabs wrap onto a second row').toBe(1);
    expect(await page.getByTestId('narrow-notice').isVisible()).toBe(false);

    // The exam page speaks both languages.
    await page.getByTestId('lang-switch').click();
    await page
      .locator('#question-heading')
      .filter({ hasText: /^Question \d+$/ })
      .waitFor();
    await page.getByTestId('lang-switch').click();
    await page
      .locator('#question-heading')
      .filter({ hasText: /^第 \d+ 题$/ })
      .waitFor();

    // A phone-sized window is told the exam needs a computer, and nothing scrolls sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId('narrow-notice').getByText('本考试需要在电脑上作答').waitFor();
    expect(await overflow(page)).toBeLessThanOrEqual(0);

    await page.setViewportSize(SIZES[0]);
    await page.getByTestId('exam-submit').click();
    await page.getByTestId('submit-confirm').click();
    // The submit first sends what the outbox holds; on a loaded machine that takes longer than a page load.
    await page.waitForURL(/\/result$/, { timeout: 45_000 });
    await page.getByTestId('result').waitFor();
    await atEachSize(page, 'result');

    // The list now shows the candidate's own state among the finished exams (the window still open is no news
    // there: never tagged 开放中 under 已结束), and leads to the result.
    await page.goto('/exams');
    const item = page.getByTestId('exam-group-finished').getByTestId('exam-item').first();
    await item.getByTestId('exam-state').filter({ hasText: '已交卷' }).waitFor();
    expect(await item.getByTestId('exam-window').count()).toBe(0);
    const link = item.getByTestId('exam-enter');
    expect(await link.textContent()).toBe('查看结果');
    await link.click();
    await page.waitForURL(/\/result$/);
    await page.getByTestId('result').waitFor();

    // An exam this account was not invited to says so, in place of a generic 404 page.
    await page.goto('/exam/99999/99999');
    await page.getByTestId('exam-missing').getByText('找不到这场笔试').waitFor();
    expect(new URL(page.url()).pathname).toBe('/exam/99999/99999');

    expect(consoleErrors.filter((e) => !/status of 4\d\d/.test(e))).toEqual([]);
    await context.close();
  }, 180_000);
});
