/** Answering in the exam without a network, and what the page keeps for later meanwhile. */
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

/** Answers the question on screen with what works without a network (no audio, no file upload). */
export async function answerOffline(page: Page, type: string): Promise<void> {
  const q = page.getByTestId('question');
  switch (type) {
    case '1':
    case '7':
    case '11':
    case 'ceping':
    case '2':
    case '3':
      await q.locator('label', { hasText: /^A\./ }).first().click();
      return;
    case '9':
    case '10':
      await q.getByTestId('sub-question').first().locator('label', { hasText: /^A\./ }).click();
      return;
    case '4':
      await q.getByTestId('blank-input').first().fill('404');
      return;
    case '5':
      await q.getByTestId('qa-editor').click();
      await page.keyboard.type('written offline');
      return;
    case '6':
    case '8':
      await q.getByTestId('code-editor').click();
      await page.keyboard.press('Control+End');
      await page.keyboard.type('// written offline');
      return;
    default:
      throw new Error(`no offline answer for type ${type}`);
  }
}

/** The entries in this browser's IndexedDB outbox (every exam): answers, answer events and risk records. */
function outboxEntries(
  page: Page,
): Promise<{ channel: string; subject_id: number; answer?: unknown; option?: unknown }[]> {
  return page.evaluate(
    () =>
      new Promise<{ channel: string; subject_id: number; answer?: unknown; option?: unknown }[]>((resolve, reject) => {
        const open = indexedDB.open('examhall-outbox');
        open.onerror = () => reject(new Error('no outbox database'));
        open.onsuccess = () => {
          const db = open.result;
          const req = db.transaction('outbox').objectStore('outbox').getAll();
          req.onsuccess = () => {
            db.close();
            resolve(req.result as { channel: string; subject_id: number }[]);
          };
          req.onerror = () => {
            db.close();
            reject(new Error('read failed'));
          };
        };
      }),
  );
}

/** How many entries the outbox in this browser holds. */
export async function outboxSize(page: Page): Promise<number> {
  return (await outboxEntries(page)).length;
}

/**
 * The questions whose answer the outbox has durably stored, as `kind:id` in the card's terms (`subject:12`,
 * `ceping:3`), sorted. The page shows a change at once and stores it a moment later; only a stored change is the
 * browser's to keep through a reload.
 */
export async function storedAnswerKeys(page: Page): Promise<string[]> {
  const keys = new Set<string>();
  for (const e of await outboxEntries(page)) {
    if (e.answer === undefined && e.option === undefined) continue;
    keys.add(`${e.channel === 'ceping' ? 'ceping' : 'subject'}:${e.subject_id}`);
  }
  return [...keys].sort();
}

/**
 * Waits until the exam page can go on without a network: the service worker controls it (it keeps the shell) and
 * every load is done (every question was fetched up front and kept in this browser).
 */
export async function readyForOffline(page: Page): Promise<void> {
  await expect
    .poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), { timeout: 15_000 })
    .toBe(true);
  await page.waitForLoadState('networkidle');
}

/** Opens the question of an answer card cell and answers it offline; answers its id and kind once it shows answered. */
export async function answerCell(page: Page, cell: Locator): Promise<{ id: string; kind: string }> {
  await cell.click();
  const id = (await cell.getAttribute('data-id'))!;
  const q = page.locator(`[data-testid="question"][data-id="${id}"]`);
  await q.waitFor();
  await answerOffline(page, (await q.getAttribute('data-type'))!);
  await expect.poll(() => cell.getAttribute('data-answered')).toBe('1');
  return { id, kind: (await cell.getAttribute('data-kind'))! };
}

/**
 * Takes the browser off the network and waits until the exam page says so and a request from the page really
 * fails: Chromium reports the change to the page before its network has taken it up, and a save sent in between
 * still reaches the server.
 */
export async function goOffline(context: BrowserContext, page: Page): Promise<void> {
  await context.setOffline(true);
  await page.getByTestId('net-banner').waitFor();
  await expect
    .poll(
      () =>
        page.evaluate(() =>
          fetch(`/api/common/site-config?probe=${Date.now()}`, { cache: 'no-store' }).then(
            () => false,
            () => true,
          ),
        ),
      { timeout: 15_000 },
    )
    .toBe(true);
}
