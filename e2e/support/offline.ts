/** Answering in the exam without a network, and what the page keeps for later meanwhile. */
import type { Page } from 'playwright-core';

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

/** What the outbox in this browser's IndexedDB holds for the exam. */
export function outboxSize(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open('examhall-outbox');
        open.onerror = () => reject(new Error('no outbox database'));
        open.onsuccess = () => {
          const req = open.result.transaction('outbox').objectStore('outbox').count();
          req.onsuccess = () => resolve(req.result);
          req.onerror = () => reject(new Error('count failed'));
        };
      }),
  );
}
