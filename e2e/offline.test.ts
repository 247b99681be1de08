import { describe, expect, it } from 'vitest';
import { browserAvailable, newPage } from './support/browser.js';
import { useJourney } from './support/journey.js';
import { api, authOf, enterDemoExam, examIdsOf, loginAs } from './support/candidate.js';
import { answerCell, goOffline, outboxSize, readyForOffline, storedAnswerKeys } from './support/offline.js';

describe.runIf(browserAvailable())('answers survive a lost network and a reload', () => {
  const j = useJourney();

  it('keeps eleven answers made offline through a reload, shows them unsaved, and delivers them once online', async () => {
    const { context, page } = await newPage(j.browser, j.server.baseUrl);
    await loginAs(page, j.server);
    await enterDemoExam(page);
    const { examId } = examIdsOf(page);
    const auth = await authOf(context);
    await readyForOffline(page);

    await goOffline(context, page);

    const cells = page.getByTestId('card-item');
    const answerAt = (i: number) => answerCell(page, cells.nth(i));
    const answered: { id: string; kind: string }[] = [];
    while (answered.length < 10) answered.push(await answerAt(answered.length));
    const cellOf = (id: string) => page.locator(`[data-testid="card-item"][data-id="${id}"]`);
    for (const a of answered) expect(await cellOf(a.id).getAttribute('data-save')).toBe('unsaved');
    const keys = answered.map((a) => `${a.kind}:${a.id}`).sort();
    await expect.poll(() => storedAnswerKeys(page), { timeout: 15_000 }).toEqual(keys);

    // One more answer and a reload at once, without a network: whether or not the browser had stored the last one
    // yet (its note bridges the moment), the page comes back with all eleven, still unsaved.
    answered.push(await answerAt(answered.length));
    await page.reload();
    await page.getByTestId('question').waitFor();
    await page.getByTestId('net-banner').waitFor();
    // The card lays the outbox's unsent answers over the server's copy once the outbox has opened.
    for (const a of answered) {
      await expect.poll(() => cellOf(a.id).getAttribute('data-answered'), { timeout: 30_000 }).toBe('1');
      expect(await cellOf(a.id).getAttribute('data-save')).toBe('unsaved');
    }
    // Every change is in the browser's store again, and no note is left.
    await expect.poll(() => storedAnswerKeys(page)).toEqual(answered.map((a) => `${a.kind}:${a.id}`).sort());
    expect(
      await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('examhall-staged:'))),
    ).toEqual([]);

    // Nothing reached the server meanwhile.
    const before = await api<{ answer: unknown }>(j.server, auth, 'GET', '/subject/show-new', {
      subject_id: Number(answered.find((a) => a.kind === 'subject')!.id),
      exam_id: examId,
    });
    expect(before.answer).toBeNull();

    await context.setOffline(false);
    for (const a of answered) {
      await expect.poll(() => cellOf(a.id).getAttribute('data-save'), { timeout: 30_000 }).toBe('saved');
    }
    await expect.poll(() => outboxSize(page), { timeout: 15_000 }).toBe(0);

    // All eleven are on the server, each with a stored version.
    for (const a of answered) {
      if (a.kind === 'ceping') {
        const shown = await api<{ answer: string | null }>(j.server, auth, 'GET', '/ceping/exam-show-new', {
          exam_id: examId,
          subject_id: Number(a.id),
        });
        expect(shown.answer, `evaluation item ${a.id}`).toBe('A');
      } else {
        const shown = await api<{ answer: { version: number } | null }>(j.server, auth, 'GET', '/subject/show-new', {
          subject_id: Number(a.id),
          exam_id: examId,
        });
        expect(shown.answer, `question ${a.id}`).not.toBeNull();
        expect(shown.answer!.version).toBeGreaterThanOrEqual(1);
      }
    }
    await context.close();
  }, 180_000);
});

describe.runIf(browserAvailable())('the timer follows the server clock', () => {
  const j = useJourney();

  it('shows the server remaining time with the browser clock three hours ahead', async () => {
    const { context, page } = await newPage(j.browser, j.server.baseUrl);
    await context.addInitScript(() => {
      const shift = 3 * 3_600_000;
      const RealDate = Date;
      class ShiftedDate extends RealDate {
        constructor(...args: unknown[]) {
          if (args.length === 0) super(RealDate.now() + shift);
          else super(...(args as [number]));
        }
        static override now() {
          return RealDate.now() + shift;
        }
      }
      globalThis.Date = ShiftedDate as DateConstructor;
    });
    await loginAs(page, j.server);
    expect(await page.evaluate(() => Date.now() - performance.timeOrigin - performance.now())).toBeGreaterThan(
      2.9 * 3_600_000,
    );
    await enterDemoExam(page);
    const { examId, anid } = examIdsOf(page);
    const auth = await authOf(context);

    const started = await api<{ attempt: { end_time: number } }>(j.server, auth, 'POST', '/monitor/start-exam', {
      exam_id: examId,
      anid,
    });
    const clock = await api<{ timestamp: number }>(j.server, auth, 'GET', '/monitor/time-table');
    const timer = page.getByTestId('exam-timer');
    const shownMs = Number(await timer.getAttribute('data-remaining-ms'));
    const expected = started.attempt.end_time - clock.timestamp;
    expect(Math.abs(shownMs - expected)).toBeLessThan(3_000);
    // The text says the same: about an hour, not three hours off or already over.
    expect(await timer.textContent()).toMatch(/^(01:00:00|59:\d\d)$/);
    await context.close();
  }, 120_000);
});
