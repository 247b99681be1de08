/**
 * Extra time end to end: a staff member gives the demo candidate 15 extra minutes in the exam editor's Schedule
 * tab; the candidate logs in, sees the exam in the list with its longer length, enters, and the exam page's
 * clock counts down from the longer time.
 */
import { describe, expect, it } from 'vitest';
import { browserAvailable, newPage } from './support/browser.js';
import { api, authOf, enterByApi, loginAs } from './support/candidate.js';
import { inputOf, staffLogin } from './support/console.js';
import { useJourney } from './support/journey.js';
import { ADMIN, DEMO_PHONE } from './support/server.js';

const MINUTE = 60_000;

describe.runIf(browserAvailable())('schedule journey', () => {
  const j = useJourney();

  it('gives a candidate 15 extra minutes in the console; the list and the clock show the longer time', async () => {
    const { server } = j;
    // The candidate logs in first (one SMS code per minute); the page's token reads the list.
    const cand = await newPage(j.browser, server.baseUrl);
    await loginAs(cand.page, server);
    const auth = await authOf(cand.context);
    const before = await api<{ list: { id: number; anid: number; time: number }[] }>(
      server,
      auth,
      'GET',
      '/exam/index',
    );
    const { id: examId, anid, time } = before.list[0]!;

    // The console: select the candidate's invitation on the Schedule tab and give 15 minutes.
    const staff = await newPage(j.browser, server.baseUrl);
    await staffLogin(staff.page, ADMIN, `/admin/exams/${examId}?tab=schedule`);
    const table = staff.page.getByTestId('schedule-invitations');
    const row = table.getByRole('row', { name: new RegExp(DEMO_PHONE) });
    await row.getByRole('checkbox').check();
    await staff.page.getByTestId('invitations-extra').click();
    await inputOf(staff.page.getByTestId('extra-value')).fill('15');
    await staff.page.locator('.ant-modal-footer:visible .ant-btn-primary').click();
    await row.filter({ hasText: '15 分钟' }).waitFor();
    expect(staff.consoleErrors).toEqual([]);
    await staff.context.close();

    // The candidate's list shows the longer length.
    await cand.page.reload();
    const item = cand.page.locator(`[data-testid="exam-item"][data-exam="${examId}"]`);
    const length = item.getByTestId('exam-time');
    await expect.poll(() => length.getAttribute('data-minutes')).toBe(String(time + 15));
    expect(await length.textContent()).toContain('延长 15 分钟');

    // Entering starts a clock of the longer length.
    const started = await enterByApi(server, auth, examId, anid);
    await cand.page.goto(`/exam/${examId}/${anid}/answer`);
    const timer = cand.page.getByTestId('exam-timer');
    await timer.waitFor();
    const remaining = Number(await timer.getAttribute('data-remaining-ms'));
    expect(remaining).toBeGreaterThan((time + 14) * MINUTE);
    expect(remaining).toBeLessThanOrEqual((time + 15) * MINUTE);
    expect(started.attempt.end_time - Date.now()).toBeGreaterThan((time + 14) * MINUTE);
    await cand.context.close();
  }, 180_000);
});
