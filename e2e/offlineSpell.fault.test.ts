/**
 * Fault: the candidate's browser is offline for a long spell in the middle of the exam (ten minutes at full scale:
 * FAULT_FULL=true, or FAULT_OFFLINE_SECONDS; CI runs a shorter spell). Answers are made all through the spell; once
 * the network is back the page delivers every one by itself, without a reload, and the server holds them all.
 */
import { describe, expect, it } from 'vitest';
import { browserAvailable, newPage } from './support/browser.js';
import { api, authOf, enterDemoExam, examIdsOf, loginAs } from './support/candidate.js';
import { useJourney } from './support/journey.js';
import { answerCell, goOffline, outboxSize, readyForOffline, storedAnswerKeys } from './support/offline.js';

const OFFLINE_S = Number(process.env.FAULT_OFFLINE_SECONDS) || (process.env.FAULT_FULL === 'true' ? 600 : 20);
const ANSWERS = 10;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.runIf(browserAvailable())('fault: the browser offline for a long spell', () => {
  const j = useJourney();

  it(
    `delivers every answer made during ${OFFLINE_S} s offline, and recovers without a reload`,
    async () => {
      const { context, page } = await newPage(j.browser, j.server.baseUrl);
      await loginAs(page, j.server);
      await enterDemoExam(page);
      const { examId } = examIdsOf(page);
      const auth = await authOf(context);
      await readyForOffline(page);
      // Gone if the page reloads; a navigation of the main frame is counted too.
      await page.evaluate(() => Object.assign(window, { faultMarker: 'same page' }));
      let navigations = 0;
      page.on('framenavigated', (f) => {
        if (f === page.mainFrame()) navigations += 1;
      });

      await goOffline(context, page);
      const began = Date.now();
      const cells = page.getByTestId('card-item');
      const answered: { id: string; kind: string }[] = [];
      for (let i = 0; answered.length < ANSWERS; i++) {
        // Spread over the spell, as a candidate goes on working.
        await sleep(Math.max(0, began + ((answered.length + 1) * OFFLINE_S * 1000) / (ANSWERS + 1) - Date.now()));
        answered.push(await answerCell(page, cells.nth(i)));
      }
      await sleep(Math.max(0, began + OFFLINE_S * 1000 - Date.now()));
      const cellOf = (id: string) => page.locator(`[data-testid="card-item"][data-id="${id}"]`);
      for (const a of answered) expect(await cellOf(a.id).getAttribute('data-save')).toBe('unsaved');
      expect(await storedAnswerKeys(page)).toEqual(answered.map((a) => `${a.kind}:${a.id}`).sort());

      await context.setOffline(false);
      const back = Date.now();
      for (const a of answered) {
        await expect.poll(() => cellOf(a.id).getAttribute('data-save'), { timeout: 60_000 }).toBe('saved');
      }
      await expect.poll(() => outboxSize(page), { timeout: 15_000 }).toBe(0);
      await expect.poll(() => page.getByTestId('net-banner').count(), { timeout: 15_000 }).toBe(0);
      const recoveredS = (Date.now() - back) / 1000;
      expect(await page.evaluate(() => (window as unknown as { faultMarker?: string }).faultMarker)).toBe('same page');
      expect(navigations).toBe(0);

      let found = 0;
      for (const a of answered) {
        if (a.kind === 'ceping') {
          const shown = await api<{ answer: string | null }>(j.server, auth, 'GET', '/ceping/exam-show-new', {
            exam_id: examId,
            subject_id: Number(a.id),
          });
          if (shown.answer === 'A') found += 1;
        } else {
          const shown = await api<{ answer: { version: number } | null }>(j.server, auth, 'GET', '/subject/show-new', {
            subject_id: Number(a.id),
            exam_id: examId,
          });
          if (shown.answer && shown.answer.version >= 1) found += 1;
        }
      }
      console.log(
        `[fault browser-offline] offline ${OFFLINE_S} s: answers acknowledged ${answered.length}, found ${found} ` +
          `(all delivered ${recoveredS.toFixed(1)} s after the network came back, no reload)`,
      );
      expect(found).toBe(answered.length);
      await context.close();
    },
    (OFFLINE_S + 180) * 1000,
  );
});
