/**
 * A session that has expired by the time the candidate reloads the exam: the browser has dropped the cookie, so the
 * reload lands on the login page, which says the exam goes on and the answers are safe, with the phone that took
 * the exam filled in; logging in there goes back to the exam, and the change made after the session ended reaches
 * the server.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserAvailable, newPage } from './support/browser.js';
import { api, authOf, enterDemoExam, examIdsOf, loginAs } from './support/candidate.js';
import { useJourney } from './support/journey.js';
import { DEMO_PHONE } from './support/server.js';

/** The server's wait between two codes to one phone (SMS_RULES.resendIntervalMs), with a margin. */
const RESEND_WAIT_MS = 62_000;
const SHOTS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'screenshots');

/** Opens the next single-choice or true/false question from the card and picks its option A; answers its id. */
async function answerNextChoice(page: Page, skip: readonly string[]): Promise<string> {
  const cells = page.locator('[data-testid="card-item"]');
  for (let n = 0; n < (await cells.count()); n++) {
    await cells.nth(n).click();
    const q = page.getByTestId('question');
    await q.waitFor();
    const type = await q.getAttribute('data-type');
    const id = (await q.getAttribute('data-id'))!;
    if ((type !== '1' && type !== '7') || skip.includes(id)) continue;
    await q.locator('label', { hasText: /^A\./ }).click();
    return id;
  }
  throw new Error('no single-choice question left');
}

describe.runIf(browserAvailable())('reloading the exam once the session has expired', () => {
  const j = useJourney();

  it('lands on a login that says the answers are safe, with the phone filled in, and goes back to the exam', async () => {
    const { context, page, consoleErrors } = await newPage(j.browser, j.server.baseUrl);
    await mkdir(SHOTS, { recursive: true });
    await loginAs(page, j.server);
    const loggedInAt = Date.now();
    await enterDemoExam(page);
    const { examId } = examIdsOf(page);
    const examUrl = new URL(page.url()).pathname;

    // One answer saved while the session lasts.
    const saved = await answerNextChoice(page, []);
    const savedCell = page.locator(`[data-testid="card-item"][data-id="${saved}"]`);
    await expect.poll(() => savedCell.getAttribute('data-save'), { timeout: 20_000 }).toBe('saved');

    // The session expires: the browser drops its cookie. A change made now waits in the browser.
    await context.clearCookies({ name: 'auth' });
    const waiting = await answerNextChoice(page, [saved]);
    const waitingCell = page.locator(`[data-testid="card-item"][data-id="${waiting}"]`);
    await expect.poll(() => waitingCell.getAttribute('data-save'), { timeout: 20_000 }).toBe('unsaved');

    // The reload: the login page says the exam goes on and nothing is lost, with the phone filled in.
    await page.reload();
    await page.waitForURL((u) => u.pathname === '/login' && u.searchParams.get('redirect') === examUrl);
    const notice = page.getByTestId('login-exam-notice');
    await notice.waitFor();
    expect(await notice.textContent()).toContain('考试仍在进行');
    expect(await notice.textContent()).toContain('你的作答都已保存');
    expect(await page.getByTestId('phone-input').inputValue()).toBe(DEMO_PHONE);
    await page.screenshot({ path: path.join(SHOTS, 'login-exam-notice-zh-1440x900.png') });
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.getByTestId('lang-switch').click();
    await notice.getByText('Your answers are safe', { exact: false }).waitFor();
    await page.screenshot({ path: path.join(SHOTS, 'login-exam-notice-en-1280x720.png') });
    await page.getByTestId('lang-switch').click();
    await notice.getByText('考试仍在进行').waitFor();

    // Logging in there (a new code: the server allows one a minute per phone) goes back to the exam.
    await page.waitForTimeout(Math.max(0, RESEND_WAIT_MS - (Date.now() - loggedInAt)));
    const before = j.server.sms.codesSent(DEMO_PHONE);
    await page.getByTestId('send-code').click();
    await page.getByTestId('code-input').fill(await j.server.sms.waitForCode(DEMO_PHONE, 10_000, before));
    await page.getByTestId('login-submit').click();
    await page.waitForURL((u) => u.pathname === examUrl);
    await page.getByTestId('question').waitFor();

    // The change made after the session ended reaches the server; the saved one is still there.
    await expect.poll(() => waitingCell.getAttribute('data-save'), { timeout: 20_000 }).toBe('saved');
    const auth = await authOf(context);
    for (const id of [saved, waiting]) {
      const shown = await api<{ answer: { value: unknown } | null }>(j.server, auth, 'GET', '/subject/show-new', {
        exam_id: examId,
        subject_id: Number(id),
      });
      expect(shown.answer?.value).toEqual({ kind: 'choice', option: 'A' });
    }
    expect(consoleErrors.filter((e) => !/status of 4\d\d/.test(e))).toEqual([]);
    await context.close();
  }, 240_000);
});
