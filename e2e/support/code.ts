/** The CodeMirror editors and the language picker of a code answer (and of the console's source editors). */
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * Replaces the text of the code editor inside `scope` as typed input (not a paste, which an exam may block),
 * and checks it arrived.
 */
export async function setCode(page: Page, scope: Locator, code: string): Promise<void> {
  const editor = scope.getByTestId('code-editor');
  await editor.click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  // insertText adds the text as one input, so the editor's auto-indent cannot change Python's layout.
  await page.keyboard.insertText(code);
  await expect
    .poll(() => editor.evaluate((el) => Array.from(el.querySelectorAll('.cm-line'), (l) => l.textContent).join('\n')))
    .toBe(code);
}

/** Picks the answer's language in the question's language list. */
export async function chooseLanguage(page: Page, question: Locator, name: RegExp): Promise<void> {
  await question.getByTestId('code-language').click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: name }).click();
  await expect.poll(() => question.getByTestId('code-language').textContent()).toMatch(name);
}
