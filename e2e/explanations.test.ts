import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { browserAvailable, newPage } from './support/browser.js';
import { completeProfile, loginAs } from './support/candidate.js';
import { staffCall, staffLogin } from './support/console.js';
import { useJourney } from './support/journey.js';
import { passMonitorChecks } from './support/monitor.js';
import { ADMIN } from './support/server.js';

const STEM = 'E2E-explained: 2, 4, 8, ?';
const EXPLANATION = '每一项都是前一项的两倍 Each term doubles the one before';
const FEEDBACK_A = '12 只加了 4 · 12 only adds 4';
const CANDIDATE_PHONE = '13700137001';

/** Picks option `id` of the question on screen. */
async function pick(scope: Locator, id: string) {
  await scope.locator('label', { hasText: new RegExp(`^${id}\\.`) }).click();
  await expect.poll(() => scope.getByRole('radio', { name: new RegExp(`^${id}\\.`) }).isChecked()).toBe(true);
}

/** Answers the exam's one question with A (a wrong answer), submits it and lands on the result page. */
async function answerAndSubmit(page: Page): Promise<void> {
  const q = page.getByTestId('question').first();
  await q.waitFor();
  await pick(q, 'A');
  await expect.poll(() => page.getByTestId('card-item').first().getAttribute('data-answered')).toBe('1');
  await page.getByTestId('exam-submit').click();
  await page.getByTestId('submit-confirm').click();
  await page.waitForURL(/\/result$/);
  await page.getByTestId('result-title').waitFor();
}

/** The explanation of the one question on the result page: its option A's feedback, its text, the choice mark. */
async function readExplanation(page: Page): Promise<{ heading: string; feedback: string; text: string }> {
  const explained = page.getByTestId('explained');
  await explained.waitFor();
  const optionA = explained.locator('[data-testid="explained-option"][data-option="A"]');
  await optionA.getByTestId('explained-chosen').waitFor();
  return {
    heading: (await page.getByTestId('explanations').locator('h2').textContent()) ?? '',
    feedback: (await optionA.getByTestId('option-feedback').textContent()) ?? '',
    text: (await explained.getByTestId('explanation-text').textContent()) ?? '',
  };
}

describe.runIf(browserAvailable())('explanations: written in the bank, previewed, read after a practice exam', () => {
  const j = useJourney();
  const contexts: BrowserContext[] = [];
  let examId = 0;
  afterAll(async () => {
    for (const c of contexts) await c.close();
  });

  it('an author writes an explanation and an option’s feedback in the bank, and they are kept', async () => {
    const { context, page } = await newPage(j.browser, j.server.baseUrl);
    contexts.push(context);
    await staffLogin(page, ADMIN, '/admin/questions');
    await page.getByTestId('bank-new').click();
    const editor = page.getByTestId('question-editor');
    await editor.waitFor();
    await editor.getByTestId('stem-editor').fill(STEM);
    for (const [id, text] of [
      ['A', '12'],
      ['B', '16'],
      ['C', '14'],
      ['D', '18'],
    ] as const)
      await editor.getByTestId(`option-text-${id}`).fill(text);
    await editor.getByTestId('option-right-B').check();
    // The explanation and option A's feedback, under their own labels.
    await editor.getByRole('textbox', { name: '解析' }).fill(EXPLANATION);
    await editor.getByRole('textbox', { name: '选项 A 的反馈' }).fill(FEEDBACK_A);
    await page.getByTestId('question-save').click();
    await page.waitForURL(/[?&]edit=\d+/);
    const id = Number(new URL(page.url()).searchParams.get('edit'));
    // Opened again from the server, the question shows what was written.
    await page.reload();
    const reopened = page.getByTestId('question-editor');
    await page.locator('.ant-drawer-title', { hasText: `#${id}` }).waitFor();
    await expect.poll(() => reopened.getByRole('textbox', { name: '解析' }).textContent()).toBe(EXPLANATION);
    await expect.poll(() => reopened.getByRole('textbox', { name: '选项 A 的反馈' }).textContent()).toBe(FEEDBACK_A);
    expect(await reopened.getByRole('textbox', { name: '选项 B 的反馈' }).textContent()).toBe('');
    await reopened.getByTestId('explanation-fields').screenshot({ path: '/tmp/explain-editor-zh.png' });

    // A practice exam of the question, published, with the candidate invited.
    const now = Date.now();
    const { exam_id } = await staffCall<{ exam_id: number }>(page, '/admin/exam/create', { name: 'E2E 练习' });
    examId = exam_id;
    const saved = await staffCall<{ revision: number }>(page, '/admin/exam/save-draft', {
      exam_id: examId,
      revision: 0,
      draft: {
        name: 'E2E 练习',
        mode: 0,
        time_minutes: 30,
        start_at: now - 3_600_000,
        end_at: now + 24 * 3_600_000,
        settings: { is_close_camera: 1, is_close_microphone: 1, is_close_screen: 1, is_close_phone: 1 },
        sections: [{ kind: 'linetest', title: '', items: [{ question_id: id, points: 5 }] }],
      },
    });
    await staffCall(page, '/admin/exam/publish', { exam_id: examId, revision: saved.revision });
    await staffCall(page, '/admin/exam/invite', { exam_id: examId, phones: [{ phone: CANDIDATE_PHONE }] });
  }, 120_000);

  it('the author’s preview shows the explanation after submitting', async () => {
    const page = contexts[0]!.pages()[0]!;
    await page.goto(`/admin/exams/${examId}`);
    const [preview] = await Promise.all([
      page.context().waitForEvent('page'),
      page.getByTestId('exam-preview').click(),
    ]);
    preview.setDefaultTimeout(15_000);
    await preview.waitForURL(/\/exam\/\d+\/\d+$/);
    await preview.getByTestId('entry-start').click();
    await preview.waitForURL(/\/monitor$/);
    await passMonitorChecks(preview, 'skip');
    await preview.waitForURL(/\/answer$/);
    await answerAndSubmit(preview);
    const read = await readExplanation(preview);
    expect(read).toEqual({ heading: '试题解析', feedback: `反馈${FEEDBACK_A}`, text: `解析${EXPLANATION}` });
    await preview.close();
  }, 120_000);

  it('a candidate of the practice exam reads it after submitting, in Chinese and in English', async () => {
    const { context, page } = await newPage(j.browser, j.server.baseUrl);
    contexts.push(context);
    await loginAs(page, j.server, CANDIDATE_PHONE);
    await page.getByTestId('exam-enter').first().click();
    await page.getByTestId('profile-form').or(page.getByTestId('entry-start')).waitFor();
    if (await page.getByTestId('profile-form').isVisible()) {
      await completeProfile(page);
      await page.waitForURL(/\/exam\/\d+\/\d+$/);
    }
    await page.getByTestId('entry-start').click();
    await page.waitForURL(/\/monitor$/);
    await passMonitorChecks(page, 'skip');
    await page.waitForURL(/\/answer$/);
    // While the attempt runs, the page holds neither the explanation nor the feedback.
    await page.getByTestId('question').first().waitFor();
    expect(await page.content()).not.toContain('Each term doubles');
    expect(await page.content()).not.toContain('12 only adds 4');
    await answerAndSubmit(page);
    await page.getByTestId('result-practice').waitFor();
    expect(await readExplanation(page)).toEqual({
      heading: '试题解析',
      feedback: `反馈${FEEDBACK_A}`,
      text: `解析${EXPLANATION}`,
    });
    await page.screenshot({ path: '/tmp/explain-result-zh.png', fullPage: true });

    await page.evaluate(() => localStorage.setItem('examhall.lang', 'en-US'));
    await page.reload();
    expect(await readExplanation(page)).toEqual({
      heading: 'Explanations',
      feedback: `Feedback${FEEDBACK_A}`,
      text: `Explanation${EXPLANATION}`,
    });
    expect(await page.getByTestId('explained').locator('h3').textContent()).toBe('Question 1 · Single choice');
    await page.screenshot({ path: '/tmp/explain-result-en.png', fullPage: true });
  }, 120_000);
});
