/**
 * A session revoked in the middle of the exam: the candidate stays on the exam page, which says so; the
 * answers made meanwhile wait in the browser; logging in again in place (phone filled in) sends them, and the
 * server holds every one.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserAvailable, newPage } from './support/browser.js';
import { api, authOf, enterDemoExam, examIdsOf, loginAs } from './support/candidate.js';
import { useJourney } from './support/journey.js';
import { DEMO_PHONE } from './support/server.js';

/** The server's wait between two codes to one phone (SMS_RULES.resendIntervalMs), with a margin. */
const RESEND_WAIT_MS = 62_000;

/** Picks option `id` of the choice question on screen. */
async function pickOption(page: Page, id: string) {
  await page
    .getByTestId('question')
    .locator('label', { hasText: new RegExp(`^${id}\\.`) })
    .click();
}

describe.runIf(browserAvailable())('a session that ends during the exam', () => {
  const j = useJourney();

  it('keeps the candidate on the exam with every answer, and a new login in place sends them', async () => {
    const { context, page, consoleErrors } = await newPage(j.browser, j.server.baseUrl);
    await loginAs(page, j.server);
    const loggedInAt = Date.now();
    await enterDemoExam(page);
    const { examId } = examIdsOf(page);
    const examUrl = page.url();
    const oldAuth = await authOf(context);

    // The token is revoked elsewhere (a logout from another device).
    await api(j.server, oldAuth, 'POST', '/user/logout');

    // Two single-choice answers made after that: the page keeps them and says the session is gone.
    const singles = page.locator('[data-testid="card-item"]');
    const answered: { id: string; option: string }[] = [];
    for (let n = 1; answered.length < 2; n++) {
      await singles.nth(n - 1).click();
      const q = page.getByTestId('question');
      await q.waitFor();
      if ((await q.getAttribute('data-type')) !== '1' && (await q.getAttribute('data-type')) !== '7') continue;
      const id = (await q.getAttribute('data-id'))!;
      await pickOption(page, 'A');
      answered.push({ id, option: 'A' });
      if (answered.length === 1) await page.getByTestId('session-expired').waitFor();
    }
    const dialog = page.getByTestId('session-expired');
    await dialog.getByText('考试仍在进行').waitFor();
    expect(page.url()).toBe(examUrl);
    for (const a of answered) {
      const cell = page.locator(`[data-testid="card-item"][data-id="${a.id}"]`);
      expect(await cell.getAttribute('data-save')).toBe('unsaved');
    }
    expect(await dialog.getByTestId('phone-input').inputValue()).toBe(DEMO_PHONE);

    // A new code (the server allows one a minute per phone), entered in place.
    await page.waitForTimeout(Math.max(0, RESEND_WAIT_MS - (Date.now() - loggedInAt)));
    const before = j.server.sms.messages().length;
    await dialog.getByTestId('send-code').click();
    await expect.poll(() => j.server.sms.messages().length, { timeout: 10_000 }).toBeGreaterThan(before);
    await dialog.getByTestId('code-input').fill(await j.server.sms.waitForCode(DEMO_PHONE));
    await dialog.getByTestId('login-submit').click();
    await dialog.waitFor({ state: 'detached' });
    expect(page.url()).toBe(examUrl);

    // The waiting answers reach the server under the new session.
    for (const a of answered) {
      const cell = page.locator(`[data-testid="card-item"][data-id="${a.id}"]`);
      await expect.poll(() => cell.getAttribute('data-save'), { timeout: 20_000 }).toBe('saved');
    }
    const newAuth = await authOf(context);
    expect(newAuth).not.toBe(oldAuth);
    for (const a of answered) {
      const shown = await api<{ answer: { value: unknown } | null }>(j.server, newAuth, 'GET', '/subject/show-new', {
        exam_id: examId,
        subject_id: Number(a.id),
      });
      expect(shown.answer?.value).toEqual({ kind: 'choice', option: a.option });
    }
    expect(consoleErrors.filter((e) => !/status of 4\d\d/.test(e))).toEqual([]);
    await context.close();
  }, 240_000);
});
