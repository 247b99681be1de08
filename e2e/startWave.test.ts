/**
 * A campus exam's start wave in the browser. Before the window opens a candidate checks in from the exam list and
 * passes the device checks; pressing start then waits for the opening (told when) and the page enters by itself.
 * At the opening others enter at the same moment, past what the server admits a second (ADMISSION_RATE=1 here),
 * so the page is told its place in the queue and enters by itself when its turn comes.
 */
import { describe, expect, it } from 'vitest';
import { browserAvailable, newPage } from './support/browser.js';
import { candidateToken, completeProfile, loginAs } from './support/candidate.js';
import { publishOneQuestionExam, staffCall, staffLogin } from './support/console.js';
import { useJourney } from './support/journey.js';
import { passMonitorChecks } from './support/monitor.js';
import { ADMIN } from './support/server.js';
import { passChecksOverHttp } from '../packages/server/src/bench/harness.js';

const BROWSER = '13700137600';
/** Candidates entering over the API at the opening, ahead of the browser's press. */
const OTHERS = Array.from({ length: 8 }, (_, i) => `137001376${String(i + 10)}`);

describe.runIf(browserAvailable())('start wave journey', () => {
  const j = useJourney({ ADMISSION_RATE: '1' });

  it('checks in before the opening, waits for it, then waits its turn in the queue and enters by itself', async () => {
    const { server } = j;
    const admin = await newPage(j.browser, server.baseUrl);
    await staffLogin(admin.page, ADMIN, '/admin');
    const opensAt = Date.now() + 75_000;
    const examId = await publishOneQuestionExam(admin.page, {
      name: '2027 校招笔试（开考排队）',
      opensAt,
      minutes: 30,
    });
    const invited = await staffCall<{ list: { phone: string; anid: number }[] }>(admin.page, '/admin/exam/invite', {
      exam_id: examId,
      phones: [BROWSER, ...OTHERS].map((phone) => ({ phone })),
      send_sms: false,
    });
    const anidOf = new Map(invited.list.map((i) => [i.phone, i.anid]));
    await admin.context.close();

    // The others check in over the API before the opening.
    const others = [];
    for (const phone of OTHERS) {
      const token = await candidateToken(server, phone);
      await passChecksOverHttp(server.baseUrl, token, examId, anidOf.get(phone)!);
      others.push({ phone, token });
    }

    // The browser's candidate checks in from the list: the exam is not open, its checks are.
    const cand = await newPage(j.browser, server.baseUrl);
    const page = cand.page;
    await loginAs(page, server, BROWSER);
    const enter = page.locator(`[data-testid="exam-item"][data-exam="${examId}"] [data-testid="exam-enter"]`);
    expect(await enter.getAttribute('data-action')).toBe('checkIn');
    expect(await enter.textContent()).toBe('提前检测设备');
    await enter.click();
    await page.getByTestId('profile-form').or(page.getByTestId('entry-start')).waitFor();
    if (await page.getByTestId('profile-form').isVisible()) await completeProfile(page);
    await page.getByTestId('entry-start').click();
    await page.waitForURL(/\/monitor$/);
    await passMonitorChecks(page);

    // Start was pressed before the opening: the page says when the exam opens and waits.
    const wait = page.getByTestId('start-wait');
    await page.locator('[data-testid="start-wait"][data-kind="opening"]').waitFor();
    expect(Date.now()).toBeLessThan(opensAt);
    expect(await wait.textContent()).toContain('自动进入');

    // At the opening the others enter at once, ahead of the page's own press (spread over its first seconds).
    while (Date.now() < opensAt) await new Promise((r) => setTimeout(r, 20));
    const entries = await Promise.all(
      others.map(async ({ phone, token }) => {
        for (;;) {
          const res = await fetch(`${server.baseUrl}/api/monitor/start-exam?auth=${token}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ exam_id: examId, anid: anidOf.get(phone), phase: 2 }),
          });
          const body = (await res.json()) as { code?: string };
          if (body.code !== 'exam_not_open') return body.code ?? 'entered';
          await new Promise((r) => setTimeout(r, 50));
        }
      }),
    );
    // One a second, with a second's burst: two enter, the rest are queued.
    expect(entries.filter((e) => e === 'entered')).toHaveLength(2);
    expect(entries.filter((e) => e === 'admission_queue')).toHaveLength(OTHERS.length - 2);

    // The page is queued behind them, told its place, and enters by itself when its turn comes.
    const queued = page.locator('[data-testid="start-wait"][data-kind="queue"]');
    await queued.waitFor({ timeout: 15_000 });
    expect(Number(await queued.getAttribute('data-place'))).toBeGreaterThanOrEqual(1);
    expect(await queued.textContent()).toContain('正在排队');
    await page.waitForURL(/\/answer$/, { timeout: 30_000 });
    await page.getByTestId('question').waitFor();
    expect(cand.consoleErrors.filter((e) => !/status of 4(09|29)/.test(e))).toEqual([]);
    await cand.context.close();
  }, 240_000);
});
