/**
 * The answer card as a candidate reads it: numbers that run section by section, 下一题 that never goes back to
 * an earlier section, a fill-in with a blank left shown as partly answered, questions marked for review (kept
 * across a reload), and a submit dialog that lists what is left with a jump to each, with the same counts as
 * the result page.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserAvailable, newPage } from './support/browser.js';
import { enterDemoExam, loginAs } from './support/candidate.js';
import { useJourney } from './support/journey.js';

const SECTION_ORDER = ['linetest', 'major', 'evaluation'];

/** The number of the question on screen, from its heading (第 n 题). */
async function shownNumber(page: Page): Promise<number> {
  const text = (await page.locator('#question-heading').textContent()) ?? '';
  return Number(/第 (\d+) 题/.exec(text)?.[1]);
}

/** The card cell of number n. */
const cellOf = (page: Page, n: number) => page.locator(`[data-testid="card-item"][data-n="${n}"]`);

describe.runIf(browserAvailable())('the answer card', () => {
  const j = useJourney();

  it('numbers by section, tells partial answers and review marks apart, and lists what is left before submitting', async () => {
    const { context, page, consoleErrors } = await newPage(j.browser, j.server.baseUrl);
    await loginAs(page, j.server);
    await enterDemoExam(page);

    // Numbers run 1..N through one section, then the next, in the card and on the questions.
    const sections = page.getByTestId('card-section');
    expect(await sections.evaluateAll((els) => els.map((e) => e.getAttribute('data-section')))).toEqual(SECTION_ORDER);
    const numbers: number[] = [];
    for (let s = 0; s < (await sections.count()); s++) {
      numbers.push(
        ...(await sections
          .nth(s)
          .getByTestId('card-item')
          .evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-n'))))),
      );
    }
    const total = numbers.length;
    expect(numbers).toEqual(Array.from({ length: total }, (_, i) => i + 1));
    for (let n = 1; n <= total; n++) expect((await cellOf(page, n).textContent())?.startsWith(String(n))).toBe(true);

    // 下一题 walks the numbers in order and never returns to an earlier section.
    await cellOf(page, 1).click();
    const seen: string[] = [];
    let prevSection = SECTION_ORDER[0]!;
    for (let n = 1; n <= total; n++) {
      await expect.poll(() => shownNumber(page)).toBe(n);
      seen.push((await page.locator('[data-testid="card-item"][aria-current="step"]').getAttribute('data-n'))!);
      const section = await page
        .locator('[data-testid="section-tab"][aria-current="true"]')
        .getAttribute('data-section');
      expect(SECTION_ORDER.indexOf(section!)).toBeGreaterThanOrEqual(SECTION_ORDER.indexOf(prevSection));
      prevSection = section!;
      if (n < total) await page.getByTestId('next').click();
    }
    expect(seen).toEqual(numbers.map(String));

    // A fill-in with one blank of two filled is partly answered, by a mark as well as a fill.
    const fillN = await findType(page, total, '4');
    await cellOf(page, fillN).click();
    await page.getByTestId('question').getByTestId('blank-input').nth(0).fill('404');
    await expect.poll(() => cellOf(page, fillN).getAttribute('data-state')).toBe('partial');
    expect(await cellOf(page, fillN).locator('.state-mark').textContent()).toBe('◐');
    expect(await cellOf(page, fillN).getAttribute('aria-label')).toContain('部分作答');

    // Marked for review by the button, and by Alt+M on another question; the marks survive a reload.
    await page.getByTestId('mark-review').click();
    await expect.poll(() => cellOf(page, fillN).getAttribute('data-marked')).toBe('1');
    await cellOf(page, total).click();
    await expect.poll(() => shownNumber(page)).toBe(total);
    await page.keyboard.press('Alt+KeyM');
    await expect.poll(() => cellOf(page, total).getAttribute('data-marked')).toBe('1');
    await page.reload();
    await page.getByTestId('question').waitFor();
    await expect.poll(() => cellOf(page, fillN).getAttribute('data-marked')).toBe('1');
    await expect.poll(() => cellOf(page, total).getAttribute('data-marked')).toBe('1');
    await expect.poll(() => cellOf(page, fillN).getAttribute('data-state')).toBe('partial');

    // The submit dialog counts as the card does and lists the unanswered, partial and marked questions.
    await page.getByTestId('exam-submit').click();
    const summary = page.getByTestId('submit-summary');
    await summary.waitFor();
    expect(await summary.getByTestId('submit-count').textContent()).toContain(`已作答 1 / ${total} 题`);
    const jumps = async (list: string) =>
      summary
        .getByTestId(list)
        .getByTestId('submit-jump')
        .evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-n'))));
    expect(await jumps('submit-partial')).toEqual([fillN]);
    expect(await jumps('submit-marked')).toEqual([fillN, total]);
    expect(await jumps('submit-unanswered')).toEqual(numbers.filter((n) => n !== fillN));
    // A jump closes the dialog on that question.
    await summary.getByTestId('submit-marked').getByTestId('submit-jump').last().click();
    await summary.waitFor({ state: 'detached' });
    await expect.poll(() => shownNumber(page)).toBe(total);

    // The dialog is a labelled modal: focus starts on its OK button, Tab and Shift+Tab stay inside, Escape closes it
    // and focus goes back to the submit button.
    await page.getByTestId('exam-submit').click();
    const dialog = page.getByRole('dialog', { name: '确认交卷' });
    await dialog.waitFor();
    const focusInDialog = () => dialog.evaluate((d) => d.contains(document.activeElement));
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('submit-confirm');
    await page.keyboard.press('Tab');
    expect(await focusInDialog()).toBe(true);
    for (let i = 0; i < 40; i++) await page.keyboard.press('Shift+Tab');
    expect(await focusInDialog()).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('exam-submit');

    // The result page counts the same way: one answered (in part) out of every question, evaluation included.
    await page.getByTestId('exam-submit').click();
    await page.getByTestId('submit-confirm').click();
    await page.waitForURL(/\/result$/);
    await page
      .getByTestId('result-answered')
      .filter({ hasText: `1 / ${total}` })
      .waitFor();

    expect(consoleErrors.filter((e) => !/status of 4\d\d/.test(e))).toEqual([]);
    await context.close();
  }, 180_000);
});

/** The number of the first question of `type` on the card (its data-type once shown). */
async function findType(page: Page, total: number, type: string): Promise<number> {
  for (let n = 1; n <= total; n++) {
    await cellOf(page, n).click();
    await expect.poll(() => shownNumber(page)).toBe(n);
    if ((await page.getByTestId('question').getAttribute('data-type')) === type) return n;
  }
  throw new Error(`no question of type ${type}`);
}
