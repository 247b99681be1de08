import path from 'node:path';
import { AnswerEvent, QuestionType } from '@examhall/contract';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { browserAvailable, newPage } from './support/browser.js';
import { useJourney } from './support/journey.js';
import { api, authOf, enterDemoExam, examIdsOf, loginAs } from './support/candidate.js';

interface OrderEntry {
  id: number;
  type: number;
  section: string;
}

/** Picks the options whose labels start with `id` (e.g. 'B.') inside `scope`, as a candidate clicks them. */
async function pick(scope: Locator, role: 'radio' | 'checkbox', ...ids: string[]) {
  for (const id of ids) {
    await scope.locator('label', { hasText: new RegExp(`^${id}\\.`) }).click();
    await expect.poll(() => scope.getByRole(role, { name: new RegExp(`^${id}\\.`) }).isChecked()).toBe(true);
  }
}

const EXPECTED: Record<number, unknown> = {
  1: { kind: 'choice', option: 'B' },
  2: { kind: 'multi', options: ['A', 'C'] },
  3: { kind: 'multi', options: ['A', 'B', 'D'] },
  7: { kind: 'choice', option: 'A' },
  11: { kind: 'choice', option: 'A' },
  9: { kind: 'subs', subs: { '1': { kind: 'choice', option: 'B' }, '2': { kind: 'choice', option: 'A' } } },
  4: { kind: 'blanks', blanks: ['404', '500'] },
  10: { kind: 'subs', subs: { '1': { kind: 'choice', option: 'B' } } },
};

/** Answers the question on screen (the demo's keys for the scored types). */
async function answer(page: Page, type: string) {
  const q = page.getByTestId('question');
  switch (type) {
    case '1':
      return pick(q, 'radio', 'B');
    case '2':
      return pick(q, 'checkbox', 'A', 'C');
    case '3':
      return pick(q, 'checkbox', 'A', 'B', 'D');
    case '7':
    case '11':
    case 'ceping':
      return pick(q, 'radio', 'A');
    case '4':
      await q.getByTestId('blank-input').nth(0).fill('404');
      return q.getByTestId('blank-input').nth(1).fill('500');
    case '9': {
      await q.getByTestId('passage').waitFor();
      const subs = q.getByTestId('sub-question');
      await pick(subs.nth(0), 'radio', 'B');
      return pick(subs.nth(1), 'radio', 'A');
    }
    case '10': {
      const plays = q.getByTestId('audio-plays-left');
      await plays.filter({ hasText: '2 / 2' }).waitFor();
      await q.getByTestId('audio-play').click();
      await plays.filter({ hasText: '1 / 2' }).waitFor();
      return pick(q.getByTestId('sub-question').nth(0), 'radio', 'B');
    }
    case '5': {
      const editor = q.getByTestId('qa-editor');
      await editor.click();
      await page.keyboard.type('Atomicity, consistency, isolation, durability.');
      await q.getByRole('button', { name: '加粗' }).click();
      await page.keyboard.type(' ACID');
      await q.getByTestId('qa-file-input').setInputFiles({
        name: 'notes.txt',
        mimeType: 'text/plain',
        buffer: Buffer.from('ACID notes'),
      });
      return q.getByTestId('qa-files').getByText('notes.txt').waitFor();
    }
    case '6': {
      await q.getByTestId('code-samples').waitFor();
      await q.getByTestId('code-language').click();
      await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: /^Python$/ }).click();
      const editor = q.getByTestId('code-editor');
      await editor.filter({ hasText: 'map(int, input().split())' }).waitFor();
      await editor.click();
      // The starter reads a and b; the sum is the candidate's to print.
      await page.keyboard.press('Control+End');
      await page.keyboard.type('print(a + b)');
      // A programming question scores from its judged submit.
      await q.getByTestId('judge-submit').click();
      return q
        .locator('[data-testid="judge-outcome"][data-mode="submit"] [data-testid="judge-verdict"][data-verdict="AC"]')
        .waitFor({ timeout: 60_000 });
    }
    case '8': {
      const editor = q.getByTestId('code-editor');
      await editor.filter({ hasText: 'bool isPalindrome(const string& s)' }).waitFor();
      await editor.click();
      await page.keyboard.press('Control+End');
      return page.keyboard.type('// two pointers from both ends');
    }
    default:
      throw new Error(`no answer for question type ${type}`);
  }
}

describe.runIf(browserAvailable())('the candidate exam journey', () => {
  const j = useJourney();

  it('completes the profile, passes the checks, answers every type, submits and sees the result', async () => {
    const { context, page, consoleErrors } = await newPage(j.browser, j.server.baseUrl);
    await loginAs(page, j.server);
    // The questions load a section at a time: one call per section, none per question.
    const questionCalls: string[] = [];
    page.on('request', (r) => {
      const path = new URL(r.url()).pathname;
      if (path === '/api/subject/show-section' || path === '/api/subject/show-new') questionCalls.push(path);
    });
    await enterDemoExam(page);
    const { examId } = examIdsOf(page);
    const auth = await authOf(context);

    // Sections with their counts, a timer, and one card cell per question of the order list and the evaluation card.
    const order = await api<{ subject_order: OrderEntry[] }>(j.server, auth, 'GET', '/subject/order-list', {
      exam_id: examId,
    });
    const evaluation = await api<{ data: { id: number }[]; total: number }>(
      j.server,
      auth,
      'GET',
      '/ceping/exam-line-order',
      { exam_id: examId },
    );
    const regular = order.subject_order.filter((e) => e.section !== 'evaluation');
    const cells = page.getByTestId('card-item');
    await expect.poll(() => cells.count()).toBe(regular.length + evaluation.total);
    expect(await page.getByTestId('section-tab').allTextContents()).toEqual(
      expect.arrayContaining([expect.stringMatching(/行测（\d+）/), expect.stringMatching(/测评（2）/)]),
    );
    expect(await page.getByTestId('exam-timer').textContent()).toMatch(/^(01:00:00|59:\d\d)$/);
    await page.getByTestId('shortcuts').filter({ hasText: 'Alt+→' }).waitFor();
    expect(questionCalls.sort()).toEqual(['/api/subject/show-section', '/api/subject/show-section']);

    // The keyboard shortcut moves on, and back.
    const firstId = await page.getByTestId('question').getAttribute('data-id');
    await page.keyboard.press('Alt+ArrowRight');
    await expect.poll(() => page.getByTestId('question').getAttribute('data-id')).not.toBe(firstId);
    await page.keyboard.press('Alt+ArrowLeft');
    await expect.poll(() => page.getByTestId('question').getAttribute('data-id')).toBe(firstId);

    // Copying the question text is blocked in the demo (is_copy_question 0).
    expect(await page.locator('.no-copy').count()).toBeGreaterThan(0);

    const types: string[] = [];
    const count = await cells.count();
    for (let i = 0; i < count; i++) {
      const cell = cells.nth(i);
      await cell.click();
      const id = await cell.getAttribute('data-id');
      const q = page.locator(`[data-testid="question"][data-id="${id}"]`);
      await q.waitFor();
      const type = (await q.getAttribute('data-type'))!;
      types.push(type);
      await answer(page, type);
      await expect.poll(() => cell.getAttribute('data-answered'), { timeout: 10_000 }).toBe('1');
    }
    expect(new Set(types)).toEqual(new Set(['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', 'ceping']));
    // Every change has its receipt: no cell waits, and the page says so.
    for (let i = 0; i < count; i++) {
      await expect.poll(() => cells.nth(i).getAttribute('data-save'), { timeout: 15_000 }).toBe('saved');
    }
    await page.getByTestId('save-summary').filter({ hasText: '所有修改已保存' }).waitFor();

    // The server holds every answer, as the page showed it.
    for (const entry of regular) {
      const shown = await api<{ answer: { value: Record<string, unknown> } | null }>(
        j.server,
        auth,
        'GET',
        '/subject/show-new',
        { subject_id: entry.id, exam_id: examId },
      );
      expect(shown.answer, `answer of question ${entry.id} (type ${entry.type})`).not.toBeNull();
      const value = shown.answer!.value;
      if (EXPECTED[entry.type]) expect(value).toEqual(EXPECTED[entry.type]);
      if (entry.type === 5) {
        expect(value.kind).toBe('text');
        expect(String(value.html)).toContain('durability');
        expect(String(value.html)).toMatch(/<strong>\s*ACID<\/strong>/);
        expect(value.files).toHaveLength(1);
      }
      if (entry.type === 6) expect(value).toMatchObject({ kind: 'code', language: 'python' });
      if (entry.type === 6) expect(String(value.code)).toContain('print(a + b)');
      if (entry.type === 8) expect(value).toMatchObject({ kind: 'code', language: 'cpp' });
      if (entry.type === 8) expect(String(value.code)).toContain('// two pointers from both ends');
    }
    for (const item of evaluation.data) {
      const shown = await api<{ answer: string | null }>(j.server, auth, 'GET', '/ceping/exam-show-new', {
        exam_id: examId,
        subject_id: item.id,
      });
      expect(shown.answer).toBe('A');
    }
    // Every question the candidate opened, evaluation items included, has its enter event on the server.
    const db = new Database(path.join(j.server.dataDir, 'examhall.sqlite'), { readonly: true, fileMustExist: true });
    const entered = new Set(
      db
        .prepare('SELECT DISTINCT question_id AS id FROM answer_events WHERE event = ?')
        .all(AnswerEvent.enter)
        .map((r) => (r as { id: number }).id),
    );
    db.close();
    for (const id of [...regular.map((e) => e.id), ...evaluation.data.map((e) => e.id)])
      expect(entered.has(id), `enter event of question ${id}`).toBe(true);
    // The listening play was counted by the server.
    const listening = regular.find((e) => e.type === 10)!;
    const audio = await api<{ play_count: number }>(j.server, auth, 'POST', '/subject/get-audio-info', {
      exam_id: examId,
      subject_id: listening.id,
    });
    expect(audio.play_count).toBe(1);

    // The maximum counts the questions graders score too (Q&A and programming Q&A): they wait for a grader.
    const shown = await Promise.all(
      (['linetest', 'major'] as const).map((section) =>
        api<{ list: { subject: { type: number; score: number } }[] }>(j.server, auth, 'GET', '/subject/show-section', {
          exam_id: examId,
          section,
        }),
      ),
    );
    const graded = new Set<number>([QuestionType.qa, QuestionType.programmingQa]);
    const gradedPoints = shown
      .flatMap((s) => s.list)
      .filter((d) => graded.has(d.subject.type))
      .reduce((sum, d) => sum + d.subject.score, 0);
    expect(gradedPoints).toBeGreaterThan(0);
    // Submit, confirm, and land on the result page.
    await page.getByTestId('exam-submit').click();
    await page.getByTestId('submit-confirm').click();
    await page.waitForURL(/\/result$/);
    await page.getByTestId('result-title').waitFor();
    // Every objective answer is right: full marks on the scored part; three answers wait for a grader.
    const result = await api<{ score: number; max_score: number; answered: number; total: number }>(
      j.server,
      auth,
      'GET',
      '/exam/result',
      { exam_id: examId },
    );
    expect(result.score).toBe(result.max_score - gradedPoints);
    expect(result.answered).toBe(result.total);
    expect(await page.getByTestId('result-score').textContent()).toContain(`${result.score} / ${result.max_score}`);
    expect(await page.getByTestId('result-answered').textContent()).toContain(`${result.total} / ${result.total}`);
    await page.getByTestId('result-pending').waitFor();
    await page.getByTestId('result-dimensions').waitFor();
    await page.getByTestId('position').first().waitFor();
    expect(await page.getByTestId('position').count()).toBeGreaterThan(0);

    // Feedback with a rating and a comment.
    await page.getByTestId('feedback-rating').getByText('4 ★').click();
    await page.getByTestId('feedback-text').fill('清晰 Clear questions');
    await page.getByTestId('feedback-submit').click();
    await page.getByTestId('feedback-thanks').waitFor();

    // Back at the entry, the finished attempt goes straight to its result.
    await page.goto(`/exam/${examId}/${examIdsOf(page).anid}`);
    await page.waitForURL(/\/result$/);

    expect(consoleErrors.filter((e) => !/status of 4\d\d/.test(e))).toEqual([]);
    await context.close();
  }, 180_000);
});
