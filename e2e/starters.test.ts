/**
 * Programming starters as a candidate meets them: each code question opens on its author's starter (the palindrome
 * question on its function, the a+b question on a program that reads the input and leaves the answer to the
 * candidate, which the judge does not accept as it is); running the untouched starter answers nothing, before or
 * after a reload, while code of the candidate's own does; the editor is named by the language chosen, after a switch
 * too (issue 28, item 6).
 */
import { describe, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import { browserAvailable, newPage } from './support/browser.js';
import { api, authOf, enterDemoExam, examIdsOf, loginAs } from './support/candidate.js';
import { chooseLanguage, setCode } from './support/code.js';
import { useJourney } from './support/journey.js';

const C_SUM =
  '#include <stdio.h>\nint main(void) { long long a, b; scanf("%lld %lld", &a, &b); printf("%lld\\n", a + b); return 0; }\n';

/** The text in a question's code editor, line by line. */
const editorText = (question: Locator) =>
  question
    .getByTestId('code-editor')
    .evaluate((el) => Array.from(el.querySelectorAll('.cm-line'), (l) => l.textContent).join('\n'));

describe.runIf(browserAvailable())('programming starters', () => {
  const j = useJourney();

  it("opens each code question on its author's starter, and a run of the untouched starter answers nothing", async () => {
    const { context, page, consoleErrors } = await newPage(j.browser, j.server.baseUrl);
    await loginAs(page, j.server);
    await enterDemoExam(page);
    const { examId } = examIdsOf(page);
    const auth = await authOf(context);
    const order = await api<{ subject_order: { id: number; type: number }[] }>(
      j.server,
      auth,
      'GET',
      '/subject/order-list',
      {
        exam_id: examId,
      },
    );
    const sumId = order.subject_order.find((e) => e.type === 6)!.id;
    const palindromeId = order.subject_order.find((e) => e.type === 8)!.id;
    const cell = (id: number) => page.locator(`[data-testid="card-item"][data-id="${id}"]`);

    // The palindrome question starts on the function to write (C++ first), nothing of a+b.
    await cell(palindromeId).click();
    const palindrome = page.locator(`[data-testid="question"][data-id="${palindromeId}"]`);
    await palindrome.getByTestId('code-editor').locator('.cm-line').first().waitFor();
    const palindromeStart = await editorText(palindrome);
    expect(palindromeStart).toContain('bool isPalindrome(const string& s)');
    expect(palindromeStart).not.toMatch(/a \+ b|cin >> a/);

    // The a+b question starts on a C program that reads a and b and leaves the sum to the candidate.
    await cell(sumId).click();
    const sum = page.locator(`[data-testid="question"][data-id="${sumId}"]`);
    await sum.getByTestId('code-editor').locator('.cm-line').first().waitFor();
    const sumStart = await editorText(sum);
    expect(sumStart).toContain('scanf("%lld %lld", &a, &b);');
    expect(sumStart).toContain('print the answer here');
    expect(sumStart).not.toContain('printf');

    // Running it untouched: the judge does not accept it, and the question stays unanswered.
    await sum.getByTestId('judge-run').click();
    const run = sum.locator('[data-testid="judge-outcome"][data-mode="run"]');
    await run.locator('[data-testid="judge-verdict"][data-verdict="WA"]').waitFor({ timeout: 60_000 });
    expect(await cell(sumId).getAttribute('data-answered')).toBe('0');
    const stored = () =>
      api<{ answer: { value: unknown } | null }>(j.server, auth, 'GET', '/subject/show-new', {
        exam_id: examId,
        subject_id: sumId,
      });
    expect((await stored()).answer).toBeNull();
    await page.reload();
    await page.getByTestId('question').waitFor();
    await expect.poll(() => cell(sumId).getAttribute('data-answered')).toBe('0');

    // Code of the candidate's own answers it, and the judge accepts it.
    await cell(sumId).click();
    await sum.getByTestId('code-editor').locator('.cm-line').first().waitFor();
    expect(await editorText(sum)).toBe(sumStart);
    await setCode(page, sum, C_SUM);
    await expect.poll(() => cell(sumId).getAttribute('data-answered')).toBe('1');
    await sum.getByTestId('judge-run').click();
    await sum
      .locator('[data-testid="judge-outcome"][data-mode="run"] [data-testid="judge-verdict"][data-verdict="AC"]')
      .waitFor({ timeout: 60_000 });
    await expect.poll(async () => (await stored()).answer?.value).toEqual({ kind: 'code', language: 'c', code: C_SUM });

    // The editor is named by the language chosen, after a switch too (it kept the first one's name).
    const editorName = () => sum.getByTestId('code-editor').getAttribute('aria-label');
    expect(await editorName()).toBe('代码编辑器（C）');
    await chooseLanguage(page, sum, /^Python/);
    await expect.poll(editorName).toMatch(/^代码编辑器（Python/);
    expect(consoleErrors).toEqual([]);
    await context.close();
  }, 240_000);
});
