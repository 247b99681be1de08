/**
 * Device checks with steps skipped, as a candidate sees them: the progress bar marks a skipped step as skipped,
 * never with the check mark of a passed one, and the closing notice counts the passed and the skipped steps
 * instead of saying every check is done; in Chinese at 1440×900 and English at 1280×720.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserAvailable, newPage } from './support/browser.js';
import { loginAs, openDemoChecks } from './support/candidate.js';
import { useJourney } from './support/journey.js';

const SHOTS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'screenshots');

/** Waits until the current step is no longer `step`. */
async function leaves(page: Page, step: string) {
  await expect
    .poll(() =>
      page
        .getByTestId('current-step')
        .getAttribute('data-step')
        .catch(() => null),
    )
    .not.toBe(step);
}

describe.runIf(browserAvailable())('device checks with skipped steps', () => {
  const j = useJourney();

  it('marks skipped steps apart from passed ones in the progress bar and counts them in the closing notice', async () => {
    const { context, page, consoleErrors } = await newPage(j.browser, j.server.baseUrl);
    await mkdir(SHOTS, { recursive: true });
    await page.setViewportSize({ width: 1440, height: 900 });
    await loginAs(page, j.server);
    await openDemoChecks(page);
    const current = page.getByTestId('current-step');

    // The camera skipped (the demo allows it), microphone and screen passed, the phone skipped, the pledge signed.
    await current.and(page.locator('[data-step="camera"]')).waitFor();
    await page.getByTestId('step-skip').click();
    await leaves(page, 'camera');
    await page.getByTestId('device-open').click();
    await page.getByTestId('mic-level').waitFor();
    await page.getByTestId('step-pass').click();
    await leaves(page, 'microphone');
    await page.getByTestId('device-open').click();
    await page.getByTestId('stream-preview').waitFor();
    await page.getByTestId('step-pass').click();
    await leaves(page, 'screenSharing');
    await page.getByTestId('step-skip').click();
    await leaves(page, 'mobileDevice');
    await page.getByTestId('pledge-check').check();
    await page.getByTestId('signature-typed').fill('张三');
    await page.getByTestId('signature-submit').click();
    await page.getByTestId('checks-done').waitFor();

    // The bar: three steps with the passed check mark, two with the skipped mark and the word, in order.
    const bar = page.getByTestId('monitor-step-bar');
    const items = bar.locator('.ant-steps-item');
    expect(await items.count()).toBe(5);
    const marks = await items.evaluateAll((els) =>
      els.map((el) =>
        el.classList.contains('steps-item-skipped')
          ? `skipped:${el.querySelector('.anticon-check') ? 'check' : 'own'}`
          : `passed:${el.querySelector('.anticon-check') ? 'check' : 'none'}`,
      ),
    );
    expect(marks).toEqual(['skipped:own', 'passed:check', 'passed:check', 'skipped:own', 'passed:check']);
    for (const skipped of await bar.locator('.steps-item-skipped').all())
      expect(await skipped.textContent()).toContain('已跳过');

    // The closing notice counts them.
    const notice = page.getByTestId('checks-done-notice');
    expect(await notice.getAttribute('data-skipped')).toBe('2');
    expect(await notice.textContent()).toContain('3 项已通过，2 项已跳过');
    expect(await notice.textContent()).not.toContain('全部检查已完成');
    await page.screenshot({ path: path.join(SHOTS, 'checks-skipped-zh-1440x900.png'), fullPage: true });

    await page.setViewportSize({ width: 1280, height: 720 });
    await page.getByTestId('lang-switch').click();
    await notice.getByText('3 passed and 2 skipped', { exact: false }).waitFor();
    expect(await notice.textContent()).not.toContain('All checks are done');
    for (const skipped of await bar.locator('.steps-item-skipped').all())
      expect(await skipped.textContent()).toContain('Skipped');
    await page.screenshot({ path: path.join(SHOTS, 'checks-skipped-en-1280x720.png'), fullPage: true });

    // The exam still starts.
    await page.getByTestId('start-exam').click();
    await page.waitForURL(/\/answer$/);
    expect(consoleErrors.filter((e) => !/status of 4\d\d/.test(e))).toEqual([]);
    await context.close();
  }, 240_000);
});
