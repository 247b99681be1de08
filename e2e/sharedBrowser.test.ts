/**
 * A computer two candidates use in turn (a campus lab): the first answers without a network and leaves before the
 * answer is sent; the second logs in on the same browser, takes the same exam, and neither sees nor sends the
 * first one's answer; when the first comes back and logs in, their answer goes with their own login.
 */
import { SMS_RULES } from '@examhall/contract';
import { describe, expect, it } from 'vitest';
import { browserAvailable, newPage } from './support/browser.js';
import { api, authOf, enterDemoExam, examIdsOf, loginAs } from './support/candidate.js';
import { staffCall, staffLogin } from './support/console.js';
import { useJourney } from './support/journey.js';
import { answerCell, goOffline, readyForOffline, storedAnswerKeys } from './support/offline.js';
import { ADMIN } from './support/server.js';

const SECOND = '13700137999';

describe.runIf(browserAvailable())('a browser two candidates use in turn', () => {
  const j = useJourney();

  it("keeps the first candidate's unsent answer from the second, and sends it with the first one's login", async () => {
    const { context, page } = await newPage(j.browser, j.server.baseUrl);
    await loginAs(page, j.server);
    const firstCodeAt = Date.now();
    await enterDemoExam(page);
    const { examId } = examIdsOf(page);
    // The first candidate's token, to ask the server later (leaving only drops it from this browser).
    const first = await authOf(context);
    await readyForOffline(page);

    // The first candidate answers a question without a network, then leaves the computer.
    await goOffline(context, page);
    const { id } = await answerCell(page, page.locator('[data-testid="card-item"][data-kind="subject"]').first());
    await expect.poll(() => storedAnswerKeys(page), { timeout: 15_000 }).toEqual([`subject:${id}`]);
    await page.goto('about:blank');
    await context.clearCookies();
    await context.setOffline(false);

    // The second candidate, invited to the same exam, logs in on the same browser and takes it.
    const admin = await newPage(j.browser, j.server.baseUrl);
    await staffLogin(admin.page, ADMIN, '/admin');
    await staffCall(admin.page, '/admin/exam/invite', {
      exam_id: examId,
      phones: [{ phone: SECOND }],
      send_sms: false,
    });
    await admin.context.close();
    await loginAs(page, j.server, SECOND);
    await enterDemoExam(page);
    const theirCell = page.locator(`[data-testid="card-item"][data-id="${id}"][data-kind="subject"]`);
    await page.waitForLoadState('networkidle');
    expect(await theirCell.getAttribute('data-answered')).toBe('0');
    expect(await theirCell.getAttribute('data-save')).toBe('saved');
    // Nothing of the first candidate's reached the second one's attempt, and it still waits in the browser.
    const second = await authOf(context);
    const shown = await api<{ answer: unknown }>(j.server, second, 'GET', '/subject/show-new', {
      subject_id: Number(id),
      exam_id: examId,
    });
    expect(shown.answer).toBeNull();
    expect(await storedAnswerKeys(page)).toEqual([`subject:${id}`]);
    const before = await api<{ answer: unknown }>(j.server, first, 'GET', '/subject/show-new', {
      subject_id: Number(id),
      exam_id: examId,
    });
    expect(before.answer).toBeNull();

    // The first candidate comes back (a new code once the server sends one again): their answer goes with their
    // own login.
    await page.goto('about:blank');
    await context.clearCookies();
    await new Promise((r) => setTimeout(r, Math.max(0, firstCodeAt + SMS_RULES.resendIntervalMs + 1_000 - Date.now())));
    await loginAs(page, j.server);
    await page.getByTestId('exam-enter').first().click();
    await page.waitForURL(/\/answer$/);
    await expect.poll(() => storedAnswerKeys(page), { timeout: 30_000 }).toEqual([]);
    const after = await api<{ answer: { version: number } | null }>(j.server, first, 'GET', '/subject/show-new', {
      subject_id: Number(id),
      exam_id: examId,
    });
    expect(after.answer?.version).toBeGreaterThanOrEqual(1);
    await context.close();
  }, 180_000);
});
