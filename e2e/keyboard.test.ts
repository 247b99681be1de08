/**
 * The console without a mouse: an author builds an exam of a bank question and publishes it, and a grader signs
 * in, finds the exam's desk from the menu and marks an answer, reaching every control by Tab and pressing it with
 * Enter or Space. A control Tab never reaches fails the journey.
 */
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserAvailable, newPage } from './support/browser.js';
import { api, candidateToken, enterByApi, questionOrder, saveAnswer } from './support/candidate.js';
import { staffCall, staffLogin, type StaffAccount } from './support/console.js';
import { useJourney } from './support/journey.js';
import { ADMIN, type TestServer } from './support/server.js';

/** Most Tab presses to reach a control. */
const MAX_TABS = 250;

/** Presses Tab until `target` (or what is inside it) has the focus; fails when it never does. */
async function tabTo(page: Page, target: Locator, label: string): Promise<void> {
  const handle = await target.elementHandle();
  if (!handle) throw new Error(`${label}: not on the page`);
  for (let i = 0; i < MAX_TABS; i++) {
    if (await handle.evaluate((el) => el === document.activeElement || el.contains(document.activeElement))) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`${label}: not reached by ${MAX_TABS} presses of Tab`);
}

/** True when `target` holds the focus (itself or something inside it). */
function hasFocus(target: Locator): Promise<boolean> {
  return target.evaluate((el) => el === document.activeElement || el.contains(document.activeElement));
}

const GRADER: StaffAccount = { phone: '13600136651', password: 'keyboard-grader-pass-1' };

/** The two candidates who answer the Q&A question. */
const CANDIDATE_PHONES = ['13700137651', '13700137652'] as const;

/**
 * Publishes an exam of one Q&A question (10 points, a rubric of two criteria) open now, invites the candidates and
 * has each answer and hand in over the API; answers the exam, the question and each candidate's attempt and token.
 */
async function examWithAnswers(page: Page, server: TestServer) {
  const question = await staffCall<{ id: number }>(page, '/admin/bank/questions', {
    question: {
      kind: 'qa',
      content: { stem: '<p>键盘：说说你对缓存的理解。</p>' },
      key: {
        rubric: '思路 6 分，表达 4 分。',
        criteria: [
          { title: '思路', points: 6, description: '讲到命中、失效和一致性。' },
          { title: '表达', points: 4, description: '条理清楚。' },
        ],
      },
    },
    default_score: 10,
  });
  const name = '键盘阅卷笔试';
  const { exam_id: examId } = await staffCall<{ exam_id: number }>(page, '/admin/exam/create', { name });
  const opensAt = Date.now() - 60_000;
  const saved = await staffCall<{ revision: number }>(page, '/admin/exam/save-draft', {
    exam_id: examId,
    revision: 0,
    draft: {
      name,
      mode: 1,
      time_minutes: 60,
      start_at: opensAt,
      end_at: opensAt + 24 * 3_600_000,
      settings: { is_close_camera: 1, is_close_microphone: 1, is_close_screen: 1, is_close_phone: 1 },
      pledge: '我承诺独立完成本次考试。',
      sections: [{ kind: 'major', title: '', items: [{ question_id: question.id, points: 10 }] }],
    },
  });
  await staffCall(page, '/admin/exam/publish', { exam_id: examId, revision: saved.revision });
  const invited = await staffCall<{ list: { anid: number }[] }>(page, '/admin/exam/invite', {
    exam_id: examId,
    phones: CANDIDATE_PHONES.map((phone) => ({ phone, area_code: '86' })),
    send_sms: false,
  });
  const taken: { auth: string; attemptId: number }[] = [];
  for (const [i, phone] of CANDIDATE_PHONES.entries()) {
    const auth = await candidateToken(server, phone);
    // The invitations answer one entry per phone, in the order sent.
    const started = await enterByApi(server, auth, examId, invited.list[i]!.anid);
    const [question] = await questionOrder(server, auth, examId);
    await saveAnswer(server, auth, examId, question!.id, {
      kind: 'text',
      html: `<p>缓存用空间换时间，第 ${i + 1} 份答卷。</p>`,
      files: [],
    });
    await api(server, auth, 'POST', '/monitor/finish-exam', { exam_id: examId });
    taken.push({ auth, attemptId: started.attempt.id });
  }
  return { examId, taken };
}

describe.runIf(browserAvailable())('the console by keyboard alone', () => {
  const j = useJourney();

  it('an author builds an exam of a bank question and publishes it without the mouse', async () => {
    const { context, page } = await newPage(j.browser, j.server.baseUrl, { viewport: { width: 1440, height: 900 } });
    try {
      await staffLogin(page, ADMIN, '/admin');
      // A question in the bank to build the exam of (the bank's editors are the console journey's).
      await staffCall(page, '/admin/bank/questions', {
        question: {
          kind: 'single',
          content: {
            stem: '<p>键盘：1 + 1 = ?</p>',
            options: [
              { id: 'A', content: '2' },
              { id: 'B', content: '3' },
            ],
          },
          key: { option: 'A' },
        },
        default_score: 10,
      });

      await tabTo(page, page.getByTestId('nav-exams'), 'the menu link to exams');
      await page.keyboard.press('Enter');
      await tabTo(page, page.getByTestId('exam-new'), 'new exam');
      await page.keyboard.press('Enter');
      const name = page.getByTestId('exam-create-name');
      await expect.poll(() => name.evaluate((input) => input === document.activeElement)).toBe(true);
      await page.keyboard.type('键盘校招笔试');
      await tabTo(page, page.getByTestId('exam-create-submit'), 'create');
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/admin\/exams\/\d+/);
      await page.getByTestId('exam-editor').waitFor();

      // The questions tab: a fixed section, the question picked into it.
      // By its id: antd adds a live region to the focused tab, which changes its name.
      const tab = page.locator('[role="tab"][id$="-tab-sections"]');
      // Tabs are one stop (the selected tab); the arrows move between them.
      await tabTo(page, page.getByRole('tab', { selected: true }), 'the tabs');
      for (let i = 0; i < 10 && !(await tab.evaluate((el) => el === document.activeElement)); i++) {
        await page.keyboard.press('ArrowRight');
      }
      await page.keyboard.press('Enter');
      await expect.poll(() => tab.getAttribute('aria-selected')).toBe('true');
      await tabTo(page, page.getByTestId('section-add-fixed'), 'add a fixed section');
      await page.keyboard.press('Enter');
      await tabTo(page, page.getByTestId('section-pick-0'), 'pick questions');
      await page.keyboard.press('Enter');
      const picker = page.getByTestId('question-picker');
      await picker.locator('tr.ant-table-row').first().waitFor();
      await tabTo(page, picker.locator('tr.ant-table-row').first().getByRole('checkbox'), 'the first question');
      await page.keyboard.press('Space');
      await tabTo(page, picker.getByTestId('picker-add'), 'add the picked questions');
      await page.keyboard.press('Enter');
      await picker.waitFor({ state: 'detached' });

      await tabTo(page, page.getByTestId('exam-save'), 'save');
      await page.keyboard.press('Enter');
      await page.getByTestId('exam-dirty').waitFor({ state: 'detached' });
      await tabTo(page, page.getByTestId('exam-publish'), 'publish');
      await page.keyboard.press('Enter');
      await tabTo(page, page.getByTestId('exam-publish-confirm'), 'confirm publishing');
      await page.keyboard.press('Enter');
      await page.locator('[data-testid="exam-status"][data-status="published"]').waitFor({ timeout: 60_000 });
    } finally {
      await context.close();
    }
  }, 180_000);

  it("a grader signs in, opens the exam's desk from the menu and marks its answers without the mouse", async () => {
    const admin = await newPage(j.browser, j.server.baseUrl, { viewport: { width: 1440, height: 900 } });
    const grader = await newPage(j.browser, j.server.baseUrl, { viewport: { width: 1440, height: 900 } });
    try {
      // Made through the API: an exam whose two answers wait for a grader, and the grader assigned to it.
      await staffLogin(admin.page, ADMIN, '/admin');
      const { examId, taken } = await examWithAnswers(admin.page, j.server);
      const staff = await staffCall<{ id: number }>(admin.page, '/admin/staff', {
        phone: GRADER.phone,
        area_code: '86',
        name: '键盘阅卷老师',
        role: 'grader',
        password: GRADER.password,
      });
      await staffCall(admin.page, '/admin/grading/assign', { exam_id: examId, staff_id: staff.id, sections: [] });

      // Signing in: the phone, the password, Enter.
      const page = grader.page;
      await page.goto('/admin/login');
      await tabTo(page, page.getByTestId('staff-phone'), 'the phone');
      await page.keyboard.type(GRADER.phone);
      await tabTo(page, page.getByTestId('staff-password'), 'the password');
      await page.keyboard.type(GRADER.password);
      await page.keyboard.press('Enter');
      await page.getByTestId('admin-console').waitFor();

      // The menu to the grading area, then the exam's desk.
      await tabTo(page, page.getByTestId('nav-grading'), 'the menu link to grading');
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/admin\/grading$/);
      const exam = page.getByTestId(`grading-exam-${examId}`);
      await exam.waitFor();
      await tabTo(page, exam, 'the exam to grade');
      await page.keyboard.press('Enter');
      await page.getByTestId('grading-desk').waitFor();

      // The first answer of the queue: a score per criterion, a comment, saved.
      const answer = page.getByTestId('grading-answer');
      await answer.waitFor();
      const first = Number(await answer.getAttribute('data-attempt'));
      const questionId = Number(await answer.getAttribute('data-question'));
      await tabTo(page, page.getByTestId('criterion-points-0'), "the first criterion's points");
      await page.keyboard.type('5');
      await tabTo(page, page.getByTestId('criterion-points-1'), "the second criterion's points");
      await page.keyboard.type('3');
      await expect.poll(() => page.getByTestId('mark-total').textContent()).toContain('8');
      await tabTo(page, page.getByTestId('mark-comment'), 'the comment');
      await page.keyboard.type('思路清楚，一致性没讲。');
      await tabTo(page, page.getByTestId('mark-submit'), 'save the mark');
      await page.keyboard.press('Enter');

      // The desk moves on to the other answer, and the focus with it: its first box, ready for points.
      await expect.poll(() => answer.getAttribute('data-attempt'), { timeout: 15_000 }).not.toBe(String(first));
      const nextBox = page.getByTestId('criterion-points-0');
      await expect.poll(() => hasFocus(nextBox), { timeout: 15_000 }).toBe(true);

      // Back to the answer just marked: the desk shows it marked with the points given. Previous is then disabled,
      // and the focus is on Next rather than lost.
      await tabTo(page, page.getByTestId('grading-prev'), 'the previous answer');
      await page.keyboard.press('Enter');
      await expect.poll(() => answer.getAttribute('data-attempt'), { timeout: 15_000 }).toBe(String(first));
      await expect.poll(() => page.getByTestId('item-my-mark').textContent(), { timeout: 15_000 }).toContain('8');
      expect(await page.getByTestId('rubric-scorer').count()).toBe(0);
      expect(await hasFocus(page.getByTestId('grading-next'))).toBe(true);

      // Next and back: the other answer, then this one again; each time the button left enabled has the focus.
      await page.keyboard.press('Enter');
      await expect.poll(() => answer.getAttribute('data-attempt'), { timeout: 15_000 }).not.toBe(String(first));
      expect(await hasFocus(page.getByTestId('grading-prev'))).toBe(true);
      await page.keyboard.press('Enter');
      await expect.poll(() => answer.getAttribute('data-attempt'), { timeout: 15_000 }).toBe(String(first));

      // The progress tab: the arrows move along the tabs (not through the answers: the desk stays on this one), Enter
      // opens one. One answer of two is marked. Then back to the desk, on the answer waiting.
      const focusedTab = (key: string) =>
        page.locator(`[role="tab"][id$="-tab-${key}"]`).evaluate((el) => el === document.activeElement);
      await tabTo(page, page.getByRole('tab', { selected: true }), 'the tabs');
      await page.keyboard.press('ArrowRight');
      expect(await focusedTab('reconcile')).toBe(true);
      expect(await answer.getAttribute('data-attempt')).toBe(String(first));
      await page.keyboard.press('ArrowRight');
      expect(await focusedTab('progress')).toBe(true);
      await page.keyboard.press('Enter');
      await expect.poll(() => page.getByTestId('grading-progress-bar').textContent()).toContain('1 / 2');
      await page.keyboard.press('ArrowLeft');
      await page.keyboard.press('ArrowLeft');
      expect(await focusedTab('grade')).toBe(true);
      await page.keyboard.press('Enter');
      await expect.poll(() => answer.getAttribute('data-attempt'), { timeout: 15_000 }).not.toBe(String(first));

      // The other answer: full points, saved by Enter from its last box. The queue is then empty, and the focus is on
      // the desk's word that it is done.
      await tabTo(page, page.getByTestId('criterion-points-0'), "the first criterion's points");
      await page.keyboard.type('6');
      await page.keyboard.press('Tab');
      await page.keyboard.type('4');
      await page.keyboard.press('Enter');
      const done = page.getByTestId('grading-done');
      await done.waitFor({ timeout: 15_000 });
      await expect.poll(() => hasFocus(done.locator('xpath=..'))).toBe(true);

      // The marks are stored: the first answer graded with both criteria and the comment, and each candidate's score
      // holds their mark.
      const res = await admin.page.request.get(`/api/admin/grading/item?attempt_id=${first}&question_id=${questionId}`);
      const item = ((await res.json()) as { data: { state: string; final: number; marks: unknown[] } }).data;
      expect([item.state, item.final]).toEqual(['graded', 8]);
      expect(item.marks).toMatchObject([
        { grader_id: staff.id, criteria: [5, 3], total: 8, comment: '思路清楚，一致性没讲。' },
      ]);
      for (const t of taken) {
        const result = await api<{ score: number; pending_manual: number }>(j.server, t.auth, 'GET', '/exam/result', {
          exam_id: examId,
        });
        expect([result.score, result.pending_manual]).toEqual([t.attemptId === first ? 8 : 10, 0]);
      }
    } finally {
      await grader.context.close();
      await admin.context.close();
    }
  }, 180_000);
});
