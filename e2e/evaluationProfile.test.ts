/**
 * The evaluation section as a candidate meets it: its items are named as evaluation items (never gradient choice),
 * the answer card's section tabs all fit at 1280×720 in English and 1440×900 in Chinese, and the evaluation profile
 * is on the result page whenever it is opened (a reload, a return from the exam list), with a dimension nobody
 * answered saying so instead of reading like its lowest score.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserAvailable, newPage } from './support/browser.js';
import { enterDemoExam, loginAs } from './support/candidate.js';
import { useJourney } from './support/journey.js';

const SHOTS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'screenshots');

/** How far each section tab reaches past the tab row's visible box, in pixels (0 or less when all of it shows). */
async function tabsCut(page: Page): Promise<number[]> {
  return page.getByTestId('section-tabs').evaluate((nav) => {
    const box = nav.getBoundingClientRect();
    return Array.from(nav.querySelectorAll('[data-testid="section-tab"]'), (tab) => {
      const r = tab.getBoundingClientRect();
      return Math.max(Math.ceil(r.right - box.right), Math.ceil(box.left - r.left));
    });
  });
}

async function switchLanguage(page: Page, to: RegExp) {
  await page.getByTestId('lang-switch').click();
  await page.locator('#question-heading').filter({ hasText: to }).waitFor();
}

describe.runIf(browserAvailable())('the evaluation section and its profile', () => {
  const j = useJourney();

  it('names evaluation items, fits the section tabs, and shows the profile whenever the result opens', async () => {
    const { context, page, consoleErrors } = await newPage(j.browser, j.server.baseUrl);
    await mkdir(SHOTS, { recursive: true });
    await page.setViewportSize({ width: 1440, height: 900 });
    await loginAs(page, j.server);
    await enterDemoExam(page);

    // Chinese at 1440×900: every tab shows whole; an evaluation item is a 测评题.
    expect(await tabsCut(page)).toHaveLength(3);
    for (const cut of await tabsCut(page)) expect(cut).toBeLessThanOrEqual(0);
    await page.locator('[data-testid="section-tab"][data-section="evaluation"]').click();
    const item = page.locator('[data-testid="question"][data-type="ceping"]');
    await item.waitFor();
    expect(await item.getByTestId('question-kind').textContent()).toBe('测评题');
    await page.screenshot({ path: path.join(SHOTS, 'evaluation-item-zh-1440x900.png') });

    // English at 1280×720: the same, and the last tab, Evaluation (2), is not cut off.
    await page.setViewportSize({ width: 1280, height: 720 });
    await switchLanguage(page, /^Question \d+$/);
    expect(await item.getByTestId('question-kind').textContent()).toBe('Evaluation item');
    const tabs = page.getByTestId('section-tab');
    expect(await tabs.last().textContent()).toBe('Evaluation (2)');
    for (const cut of await tabsCut(page)) expect(cut).toBeLessThanOrEqual(0);
    const row = await page
      .getByTestId('section-tabs')
      .evaluate((nav) => ({ scroll: nav.scrollWidth, client: nav.clientWidth }));
    expect(row.scroll, 'the tab row scrolls sideways').toBeLessThanOrEqual(row.client);
    await page.screenshot({ path: path.join(SHOTS, 'evaluation-item-en-1280x720.png') });

    // The first item (teamwork) answered with its top option, the second (resilience) left unanswered.
    await item.locator('[data-testid="choice-option"][data-option="A"]').click();
    const first = page.locator('[data-testid="card-item"][data-kind="ceping"]').first();
    await expect.poll(() => first.getAttribute('data-save'), { timeout: 20_000 }).toBe('saved');
    await switchLanguage(page, /^第 \d+ 题$/);

    await page.getByTestId('exam-submit').click();
    await page.getByTestId('submit-confirm').click();
    await page.waitForURL(/\/result$/, { timeout: 45_000 });
    const profile = async () => {
      await page.getByTestId('result-dimensions').waitFor();
      const dims = page.getByTestId('result-dimension');
      return Object.fromEntries(
        await Promise.all(
          (await dims.all()).map(async (d) => [
            await d.getAttribute('data-dimension'),
            (await d.textContent())?.trim(),
          ]),
        ),
      ) as Record<string, string>;
    };
    const expected = { teamwork: '团队协作 5 / 5', resilience: '抗压能力 未作答' };
    expect(await profile()).toEqual(expected);
    await page.screenshot({ path: path.join(SHOTS, 'result-profile-zh-1440x900.png'), fullPage: true });

    // Opened again: by a reload, and from the exam list; in English too.
    await page.reload();
    expect(await profile()).toEqual(expected);
    await page.goto('/exams');
    await page.getByTestId('exam-enter').first().click();
    await page.waitForURL(/\/result$/);
    expect(await profile()).toEqual(expected);
    await page.getByTestId('lang-switch').click();
    await page.getByTestId('result-dimension').filter({ hasText: 'Not answered' }).waitFor();
    expect(await profile()).toEqual({ teamwork: 'Teamwork 5 / 5', resilience: 'Resilience Not answered' });
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.screenshot({ path: path.join(SHOTS, 'result-profile-en-1280x720.png'), fullPage: true });
    expect(consoleErrors).toEqual([]);
    await context.close();
  }, 240_000);
});
