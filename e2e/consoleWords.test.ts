/**
 * Issue 28, item 4: the Chinese console in Chinese words. The audit log names actions and objects in words and
 * shows times as times and a sign-in's method in words, the job list names an export by its file, and a new
 * true/false question starts with its options in the author's language alone (candidates see them as written).
 */
import { QUESTION_KINDS } from '@examhall/contract';
import { describe, expect, it } from 'vitest';
import { browserAvailable, newPage } from './support/browser.js';
import { chooseByIndex, publishOneQuestionExam, staffCall, staffLogin } from './support/console.js';
import { useJourney } from './support/journey.js';
import { ADMIN } from './support/server.js';
import { strayTexts } from './support/words.js';

/** The first admin's name, as the server names it: data, shown as written. */
const ADMIN_NAME = 'Administrator';

describe.runIf(browserAvailable())('the Chinese console in words (issue 28, item 4)', () => {
  const j = useJourney();

  it('shows audit actions, objects, fields and times, the job list and true/false options without raw keys, epochs or English', async () => {
    const { context, page } = await newPage(j.browser, j.server.baseUrl, { viewport: { width: 1440, height: 900 } });
    try {
      await staffLogin(page, ADMIN, '/admin');
      const examId = await publishOneQuestionExam(page, { name: '校招笔试 审计', opensAt: Date.now(), minutes: 30 });
      await staffCall(page, '/admin/results/export', { exam_id: examId, format: 'xlsx', lang: 'zh' });

      // The audit log: "发布考试" on "考试 #id", not exam.publish on "exam #id".
      await page.getByTestId('nav-audit').click();
      const audit = page.getByTestId('audit-table');
      const published = audit.locator('tr.ant-table-row', { hasText: '发布考试' });
      await published.waitFor();
      expect(await published.textContent()).toContain(`考试 #${examId}`);
      expect(await strayTexts(audit, 'zh-CN', [ADMIN_NAME])).toEqual([]);
      // A draft's diff: its fields by name, its times as times.
      const saved = audit.locator('tr.ant-table-row', { hasText: '保存考试草稿' }).first();
      await saved.locator('.ant-table-row-expand-icon').click();
      const diff = audit.locator('[data-testid^="audit-diff-"]').first();
      await diff.waitFor();
      // Unchanged fields too (the window did not change between the drafts).
      if (await diff.getByRole('switch').isVisible()) await diff.getByRole('switch').click();
      await diff
        .getByText(/开始时间$/)
        .first()
        .waitFor();
      const times = await diff.locator('td', { hasText: /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/ }).count();
      expect(times).toBeGreaterThan(0);
      expect(await strayTexts(diff, 'zh-CN')).toEqual([]);
      await saved.locator('.ant-table-row-expand-icon').click();
      // A sign-in's method in words, not its code.
      const login = audit.locator('tr.ant-table-row', { hasText: '登录' }).last();
      await login.locator('.ant-table-row-expand-icon').click();
      // The draft's diff stays in the page, hidden, once its row is closed.
      const loginDiff = audit.locator('[data-testid^="audit-diff-"]:visible').first();
      await loginDiff.getByText('密码登录', { exact: true }).waitFor();
      expect(await strayTexts(loginDiff, 'zh-CN')).toEqual([]);

      // The job list names the export by its file, its kind and state in words.
      await page.goto('/admin/jobs');
      const jobs = page.getByTestId('jobs-table');
      await jobs.getByText(`exam-${examId}-results.xlsx`).waitFor();
      await jobs.getByText('成绩导出').waitFor();
      expect(await jobs.textContent()).not.toContain('Results of exam');
      expect(await strayTexts(jobs, 'zh-CN', [ADMIN_NAME, `exam-${examId}-results.xlsx`])).toEqual([]);

      // A new true/false question's options in Chinese alone.
      await page.goto('/admin/questions');
      await page.getByTestId('bank-new').click();
      const editor = page.getByTestId('question-editor');
      await editor.waitFor();
      await chooseByIndex(page, editor.getByTestId('kind-select'), QUESTION_KINDS.indexOf('true_false'));
      await page.locator('[data-testid="question-editor"][data-kind="true_false"]').waitFor();
      const options = editor.locator('[data-testid^="option-text-"]');
      await expect.poll(() => options.allInnerTexts()).toEqual(['正确', '错误']);
    } finally {
      await context.close();
    }
  }, 120_000);
});
