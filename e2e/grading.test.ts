/**
 * Grading and results end to end. Three candidates take the demo exam, answering its Q&A question and its
 * programming question (two right, one wrong, judged for real). The exam is graded blind with double marking and a
 * margin of 2 points (the second grader picked by name on the Set-up tab): a first grader marks every answer with the rubric from the keyboard without seeing who wrote
 * it, a second grader agrees on two answers and disagrees on the third beyond the margin, and the admin's
 * reconciliation shows both marks side by side before deciding. The candidates' scores then add the judged and
 * the graded points; the results page ranks them, draws the score chart, and its xlsx export, read back here,
 * holds the same scores.
 */
import { randomUUID } from 'node:crypto';
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserAvailable, newPage } from './support/browser.js';
import { api, candidateToken, saveAnswer, startAttempt } from './support/candidate.js';
import { chooseOption, inputOf, staffCall, staffLogin, type StaffAccount } from './support/console.js';
import { useJourney } from './support/journey.js';
import { ADMIN, DEMO_PHONE, type TestServer } from './support/server.js';

const GRADER_1: StaffAccount = { phone: '13600136601', password: 'grader-one-pass-1' };
const GRADER_2: StaffAccount = { phone: '13600136602', password: 'grader-two-pass-2' };

/** Question types of the demo exam's Q&A and programming questions. */
const QA_TYPE = 5;
const PROGRAMMING_TYPE = 6;

/**
 * The three candidates: their Q&A answer (which the graders recognise, blind), their code, and the points each
 * grader gives per rubric criterion (Atomicity, Consistency, Isolation, Durability: 2.5 each), as keys: F gives
 * the criterion's full points, a digit that many points.
 */
const CANDIDATES = [
  {
    phone: '13700137601',
    answer: '原子性、一致性、隔离性、持久性都要讲到。Answer of candidate one.',
    code: 'a, b = map(int, input().split())\nprint(a + b)\n',
    marks: [
      ['f', 'f', 'f', 'f'],
      ['f', 'f', 'f', '2'],
    ],
    /** Q&A: (10 + 9.5) / 2; the programming question's 20 for accepted code. */
    qa: 9.75,
    score: 29.75,
  },
  {
    phone: '13700137602',
    answer: '只讲了原子性和一致性。Answer of candidate two.',
    code: 'a, b = map(int, input().split())\nprint(b + a)\n',
    marks: [
      ['f', 'f', '0', '0'],
      ['f', 'f', '2', '0'],
    ],
    qa: 6,
    score: 26,
  },
  {
    phone: '13700137603',
    answer: '不太清楚。Answer of candidate three.',
    code: 'a, b = map(int, input().split())\nprint(a - b)\n',
    marks: [
      ['1', '0', '0', '0'],
      ['f', 'f', 'f', 'f'],
    ],
    /** 1 and 10 are 9 apart: the admin's reconciling mark of 2 decides. */
    qa: 2,
    score: 2,
  },
] as const;

/** A candidate's attempt once they have taken the exam. */
interface Taken {
  phone: string;
  auth: string;
  attemptId: number;
}

/** One candidate takes the demo exam over the API: the Q&A answer saved, the code submitted and judged, finished. */
async function takeExam(server: TestServer, c: (typeof CANDIDATES)[number], examId: number): Promise<Taken> {
  const { auth, attemptId, questions } = await startAttempt(server, c.phone, examId);
  const qa = questions.find((q) => q.type === QA_TYPE)!.id;
  const programming = questions.find((q) => q.type === PROGRAMMING_TYPE)!.id;
  await saveAnswer(server, auth, examId, qa, { kind: 'text', html: `<p>${c.answer}</p>`, files: [] });
  const judged = await api<{ job_id: string }>(server, auth, 'POST', '/answer/judge', {
    exam_id: examId,
    subject_id: programming,
    language: 'python',
    code: c.code,
    mode: 'submit',
    client_id: randomUUID(),
  });
  await expect
    .poll(
      async () =>
        (
          await api<{ state: string }>(server, auth, 'GET', '/answer/judge-status', {
            exam_id: examId,
            job_id: judged.job_id,
          })
        ).state,
      { timeout: 60_000, interval: 250 },
    )
    .toBe('done');
  await api(server, auth, 'POST', '/monitor/finish-exam', { exam_id: examId });
  return { phone: c.phone, auth, attemptId };
}

/** Which candidate wrote the answer on the grading desk, read from the answer itself (the desk is blind). */
async function candidateOnDesk(page: Page): Promise<(typeof CANDIDATES)[number]> {
  const work = (await page.getByTestId('grading-work').textContent()) ?? '';
  const found = CANDIDATES.find((c) => work.includes(c.answer));
  expect(found, work).toBeDefined();
  return found!;
}

/** Gives each criterion its points from the keyboard (↓ to the next criterion) and submits with Enter. */
async function markByKeys(page: Page, keys: readonly string[]): Promise<void> {
  // The row's corner, not its number box: the keys go to the page's shortcuts.
  await page.getByTestId('criterion-0').click({ position: { x: 4, y: 4 } });
  for (const [i, key] of keys.entries()) {
    if (i > 0) await page.keyboard.press('ArrowDown');
    await page.keyboard.press(key);
  }
  await expect.poll(() => page.getByTestId('mark-submit').isDisabled()).toBe(false);
  await page.keyboard.press('Enter');
}

/** A grader logs in and marks every answer of their queue, each as `which` says for the candidate who wrote it. */
async function gradeQueue(page: Page, examId: number, grader: 0 | 1): Promise<void> {
  await page.getByTestId(`grading-exam-${examId}`).click();
  await page.getByTestId('grading-desk').waitFor();
  for (let n = 0; n < CANDIDATES.length; n++) {
    const answer = page.getByTestId('grading-answer');
    await answer.waitFor();
    const before = await answer.getAttribute('data-attempt');
    // Blind: the candidate is not named, and the page says so.
    await page.getByTestId('item-blind').waitFor();
    expect(await page.getByTestId('item-candidate').count()).toBe(0);
    const c = await candidateOnDesk(page);
    expect(await page.getByTestId('item-rubric').textContent()).toContain('2.5 points each');
    await markByKeys(page, c.marks[grader]);
    if (n < CANDIDATES.length - 1) {
      await expect.poll(() => answer.getAttribute('data-attempt'), { timeout: 15_000 }).not.toBe(before);
    }
  }
  await page.getByTestId('grading-done').waitFor({ timeout: 15_000 });
}

describe.runIf(browserAvailable())('grading and results', () => {
  const j = useJourney();

  it('three candidates, two graders marking blind by rubric from the keyboard, a reconciliation showing both marks; the ranking, the score chart and the xlsx export', async () => {
    const { server } = j;
    const admin = await newPage(j.browser, server.baseUrl);
    await staffLogin(admin.page, ADMIN, '/admin');
    const demo = await candidateToken(server, DEMO_PHONE);
    const examId = (await api<{ list: { id: number }[] }>(server, demo, 'GET', '/exam/index')).list[0]!.id;

    // The admin makes two graders, assigns both to the exam, and sets blind double marking with a 2-point margin.
    for (const [i, g] of [GRADER_1, GRADER_2].entries()) {
      const created = await staffCall<{ id: number }>(admin.page, '/admin/staff', {
        phone: g.phone,
        area_code: '86',
        name: `阅卷老师 ${i + 1}`,
        role: 'grader',
        password: g.password,
      });
      if (i === 0) {
        await staffCall(admin.page, '/admin/grading/assign', { exam_id: examId, staff_id: created.id, sections: [] });
      }
    }
    // The second grader is picked by name on the Set-up tab.
    await admin.page.goto(`/admin/grading/${examId}`);
    await admin.page.getByTestId('grading-tab-setup').click();
    await chooseOption(admin.page, admin.page.getByTestId('assign-staff'), '阅卷老师 2');
    await admin.page.getByTestId('assign-submit').click();
    await expect
      .poll(async () => (await admin.page.locator('.ant-table-row').allTextContents()).join('|'))
      .toMatch(/阅卷老师 1.*阅卷老师 2|阅卷老师 2.*阅卷老师 1/);
    await staffCall(admin.page, '/admin/grading/settings', {
      exam_id: examId,
      blind: true,
      double_marking: true,
      margin: 2,
    });
    await staffCall(admin.page, '/admin/exam/invite', {
      exam_id: examId,
      phones: CANDIDATES.map((c) => ({ phone: c.phone, area_code: '86' })),
      send_sms: false,
    });

    // The three candidates take the exam.
    const taken: Taken[] = [];
    for (const c of CANDIDATES) taken.push(await takeExam(server, c, examId));
    for (const t of taken) {
      const result = await api<{ pending_manual: number }>(server, t.auth, 'GET', '/exam/result', { exam_id: examId });
      expect(result.pending_manual).toBe(1);
    }

    // Each grader marks the three answers blind, from the keyboard.
    for (const [i, account] of [GRADER_1, GRADER_2].entries()) {
      const grader = await newPage(j.browser, server.baseUrl);
      await staffLogin(grader.page, account, '/admin/grading');
      await gradeQueue(grader.page, examId, i as 0 | 1);
      await grader.context.close();
    }

    // The third candidate's two marks are 9 points apart: the admin sees both side by side and decides.
    const page = admin.page;
    await page.goto(`/admin/grading/${examId}`);
    await page.getByTestId('grading-tab-reconcile').click();
    const third = taken[2]!;
    const open = page.locator(`[data-testid^="reconcile-open-${third.attemptId}-"]`);
    await open.waitFor();
    expect(await page.locator('[data-testid^="reconcile-open-"]').count()).toBe(1);
    await open.click();
    const both = page.getByTestId('marks-side-by-side');
    await both.waitFor();
    const values = await both.locator('[data-testid="mark-value"] .ant-statistic-content-value').allTextContents();
    expect(values.map(Number).sort((a, b) => a - b)).toEqual([1, 10]);
    await markByKeys(page, ['2', '0', '0', '0']);
    await expect.poll(() => page.locator('[data-testid^="reconcile-open-"]').count(), { timeout: 15_000 }).toBe(0);
    // The drawer closes on the decision; the button that opened it went with its row, so the focus lands on the list.
    await expect
      .poll(() => page.getByTestId('reconcile-list').evaluate((el) => el === document.activeElement))
      .toBe(true);

    // Every answer graded: each candidate's score adds the judged and the graded points.
    for (const [i, t] of taken.entries()) {
      const result = await api<{ score: number; pending_manual: number }>(server, t.auth, 'GET', '/exam/result', {
        exam_id: examId,
      });
      expect([result.score, result.pending_manual], t.phone).toEqual([CANDIDATES[i]!.score, 0]);
    }

    // The results page: the ranking in score order, the score chart drawn, and an xlsx export with the scores.
    await page.goto(`/admin/grading/${examId}`);
    await page.getByTestId('grading-results').click();
    await page.getByTestId('results-table').waitFor();
    const rows = page.locator('[data-testid^="results-row-"]');
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(3);
    const ranked = await rows.evaluateAll((els) => els.map((e) => Number(e.dataset.testid!.split('-').pop())));
    expect(ranked).toEqual(taken.map((t) => t.attemptId));
    for (const [i, t] of taken.entries()) {
      expect(await page.getByTestId(`results-score-${t.attemptId}`).textContent()).toContain(
        String(CANDIDATES[i]!.score),
      );
    }
    // A school no candidate gave filters every row out; the reset brings them back and empties the box.
    const school = inputOf(page.getByTestId('results-filter-school'));
    await school.fill('清华大学');
    await school.press('Enter');
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(0);
    await page.getByTestId('results-filter-reset').click();
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(3);
    expect(await school.inputValue()).toBe('');
    await expect
      .poll(() => page.getByTestId('score-chart').locator('svg path').count(), { timeout: 30_000 })
      .toBeGreaterThan(0);

    // One click: the export runs as a job and its file downloads when it is done.
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 60_000 }),
      page.getByTestId('export-xlsx').click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.xlsx$/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile((await download.path())!);
    const sheet = workbook.worksheets[0]!;
    const exported = new Map<number, number>();
    sheet.eachRow((row, n) => {
      // Columns: rank, attempt, name, phone, school, major, score, ...; the first row is the header.
      if (n > 1) exported.set(Number(row.getCell(2).value), Number(row.getCell(7).value));
    });
    expect(Object.fromEntries(exported)).toEqual(
      Object.fromEntries(taken.map((t, i) => [t.attemptId, CANDIDATES[i]!.score])),
    );
    await admin.context.close();
  }, 300_000);
});
