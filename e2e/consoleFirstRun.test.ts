/**
 * A new author's first run through the console, at 1440×900 in Chinese: importing questions with no folder yet, a
 * new exam's defaults (open now, checks a first exam can pass, a preview that may skip every check), the results of
 * a small exam and the screens that follow what was just done.
 */
import type { EditorExamDetail } from '@examhall/contract';
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserAvailable, newPage } from './support/browser.js';
import { api, candidateToken, enterByApi } from './support/candidate.js';
import { clickForCall, staffCall, staffLogin, type StaffAccount } from './support/console.js';
import { useJourney } from './support/journey.js';
import { ADMIN } from './support/server.js';

const AUTHOR: StaffAccount = { phone: '13700137001', password: 'first-run-author-1' };

/** Calls a GET of the API as the staff member signed in on `page` and answers its data. */
async function staffGet<T>(page: Page, path: string, query: Record<string, string | number>): Promise<T> {
  const url = `/api${path}?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString()}`;
  const res = await page.request.get(url);
  const body = (await res.json()) as { status: string; msg: string; data: T };
  expect(body.status, `${path}: ${res.status()} ${body.msg}`).toBe('success');
  return body.data;
}

/** A GIFT file of two questions. */
const GIFT = [
  '::Status:: Which status code means "not found"? {=404 ~200 ~500}',
  '',
  '::Port:: HTTPS listens on {=443}.',
  '',
].join('\n');

describe.runIf(browserAvailable())('a new author in the console', () => {
  const j = useJourney();
  let authorReady = false;

  /** A page signed in as the author of a new team (no folders, no exams yet), at 1440×900. */
  async function authorPage(to: string) {
    if (!authorReady) {
      const admin = await newPage(j.browser, j.server.baseUrl);
      await staffLogin(admin.page, ADMIN, '/admin');
      const team = await staffCall<{ id: number }>(admin.page, '/admin/teams', { name: '新人招聘组' });
      await staffCall(admin.page, '/admin/staff', {
        phone: AUTHOR.phone,
        area_code: '86',
        name: '新出题人',
        role: 'author',
        password: AUTHOR.password,
        team_id: team.id,
      });
      await admin.context.close();
      authorReady = true;
    }
    const opened = await newPage(j.browser, j.server.baseUrl);
    await opened.page.setViewportSize({ width: 1440, height: 900 });
    await staffLogin(opened.page, AUTHOR, to);
    return opened;
  }

  it('item 2: a new exam opens now with checks an invited candidate can pass, and its preview may skip every check', async () => {
    const { context, page, consoleErrors } = await authorPage('/admin/exams');
    const question = await staffCall<{ id: number }>(page, '/admin/bank/questions', {
      question: {
        kind: 'single',
        content: {
          stem: '<p>1 + 1 = ?</p>',
          options: [
            { id: 'A', content: '2' },
            { id: 'B', content: '3' },
          ],
        },
        key: { option: 'A' },
      },
      default_score: 5,
    });

    await page.getByTestId('exam-new').click();
    await page.getByTestId('exam-create-name').fill('第一场笔试');
    const before = Date.now();
    const { exam_id: examId } = await clickForCall<{ exam_id: number }>(
      page,
      page.getByTestId('exam-create-submit'),
      '/admin/exam/create',
    );
    await page.waitForURL(new RegExp(`/admin/exams/${examId}(\\D|$)`));

    // The window opens at once (this minute), not the next day.
    const fresh = await staffGet<EditorExamDetail>(page, '/admin/exam/detail', { exam_id: examId });
    expect(fresh.draft.start_at).toBeLessThanOrEqual(Date.now());
    expect(fresh.draft.start_at).toBeGreaterThan(before - 60_000);
    // The checks: camera and microphone optional, screen sharing and the phone off until the author chooses them.
    await page.getByRole('tab', { name: '规则', exact: true }).click();
    const state = (key: string) =>
      page.getByTestId(`set-check-${key}`).locator('.ant-segmented-item-selected').textContent();
    expect(await state('camera')).toBe('可跳过');
    expect(await state('microphone')).toBe('可跳过');
    expect(await state('screenSharing')).toBe('关闭');
    expect(await state('mobileDevice')).toBe('关闭');

    // With a question and nothing else changed, the exam is published and an invited candidate starts it now.
    const saved = await staffCall<{ revision: number }>(page, '/admin/exam/save-draft', {
      exam_id: examId,
      revision: fresh.revision,
      draft: {
        ...fresh.draft,
        sections: [{ kind: 'major', title: '', items: [{ question_id: question.id, points: 5 }] }],
      },
    });
    await staffCall(page, '/admin/exam/publish', { exam_id: examId, revision: saved.revision });
    const phone = '13500135021';
    const invited = await staffCall<{ list: { anid: number }[] }>(page, '/admin/exam/invite', {
      exam_id: examId,
      phones: [{ phone, area_code: '86' }],
      send_sms: false,
    });
    const started = await enterByApi(j.server, await candidateToken(j.server, phone), examId, invited.list[0]!.anid);
    expect(started.attempt.end_time).toBeGreaterThan(Date.now());

    // The author makes every check required; the preview still lets them look at each one and skip it.
    await page.reload();
    await page.getByRole('tab', { name: '规则', exact: true }).click();
    for (const key of ['camera', 'microphone', 'screenSharing', 'mobileDevice'])
      await page.getByTestId(`set-check-${key}`).getByText('必须', { exact: true }).click();
    await page.getByTestId('exam-save').click();
    await page.getByTestId('exam-dirty').waitFor({ state: 'detached' });
    const [preview] = await Promise.all([context.waitForEvent('page'), page.getByTestId('exam-preview').click()]);
    preview.setDefaultTimeout(15_000);
    await preview.waitForURL(/\/exam\/\d+\/\d+$/);
    await preview.getByTestId('entry-start').click();
    await preview.waitForURL(/\/monitor$/);
    const current = preview.getByTestId('current-step');
    for (const step of ['camera', 'microphone', 'screenSharing', 'mobileDevice']) {
      await preview.locator(`[data-testid="current-step"][data-step="${step}"]`).waitFor();
      await preview.getByTestId('step-skip').click();
      await expect.poll(() => current.getAttribute('data-step').catch(() => null)).not.toBe(step);
    }
    await preview.locator('[data-testid="current-step"][data-step="signature"]').waitFor();
    await preview.getByTestId('pledge-check').check();
    const pad = preview.getByTestId('signature-pad');
    const box = (await pad.boundingBox())!;
    await preview.mouse.move(box.x + 30, box.y + box.height / 2);
    await preview.mouse.down();
    for (let i = 1; i <= 10; i++)
      await preview.mouse.move(box.x + 30 + i * 25, box.y + box.height / 2 + (i % 2 ? -20 : 20));
    await preview.mouse.up();
    await preview.getByTestId('signature-submit').click();
    await preview.getByTestId('start-exam').click();
    await preview.waitForURL(/\/answer$/);
    await preview.getByTestId('question').waitFor();
    expect(consoleErrors.filter((e) => !/status of 4\d\d/.test(e))).toEqual([]);
    await context.close();
  });

  it('item 1: with no folder yet, the import dialog says so and makes one in place', async () => {
    const { context, page, consoleErrors } = await authorPage('/admin/questions');
    await page.getByTestId('bank-import').click();
    const drawer = page.locator('.ant-drawer');
    // The empty list explains itself instead of 暂无数据.
    await drawer.getByText('还没有文件夹。').first().waitFor();
    await page.getByTestId('import-folder').click();
    await page.locator('.ant-select-dropdown:visible').getByText('还没有文件夹').waitFor();
    expect(await page.locator('.ant-select-dropdown:visible').textContent()).not.toContain('暂无数据');
    await page.keyboard.press('Escape');

    // A folder made from the dialog is chosen at once, and the file previews and imports into it.
    await page.getByTestId('import-new-folder').click();
    await page.getByTestId('folder-name').fill('第一批题目');
    await page
      .locator('.ant-modal:visible')
      .getByRole('button', { name: /^创\s?建$/ })
      .click();
    await expect.poll(() => page.getByTestId('import-folder').textContent()).toContain('第一批题目');
    await drawer.locator('input[type=file]').setInputFiles({
      name: 'first.gift',
      mimeType: 'text/plain',
      buffer: Buffer.from(GIFT),
    });
    // The file is read on a worker thread, whose first file takes a moment.
    await expect.poll(() => page.getByTestId('import-row').count(), { timeout: 15_000 }).toBe(2);
    await page.getByTestId('import-commit').click();
    await page.locator('.ant-message').getByText('已导入 2 道题').waitFor();
    await expect
      .poll(() => page.getByTestId('bank-table').locator('tbody tr.ant-table-row').count(), { timeout: 15_000 })
      .toBe(2);
    expect(consoleErrors.filter((e) => !/status of 4\d\d/.test(e))).toEqual([]);
    await context.close();
  });
  it('item 3: the results of a small exam show only what it has, fit their drawer, and agree on its full marks', async () => {
    const { context, page, consoleErrors } = await authorPage('/admin/exams');
    // Five fixed questions of 10 points and a draw of 3 of 5 for 2 points each: an 8-question paper worth 56, all
    // professional, with no pass mark.
    const single = (stem: string, tags: string[] = []) =>
      staffCall<{ id: number }>(page, '/admin/bank/questions', {
        question: {
          kind: 'single',
          content: { stem: `<p>${stem}</p>`, options: ['A', 'B'].map((id) => ({ id, content: `选项 ${id}` })) },
          key: { option: 'A' },
        },
        tags,
        default_score: 10,
      });
    const fixed: number[] = [];
    for (let k = 1; k <= 5; k++) fixed.push((await single(`固定题 ${k}`)).id);
    for (let k = 1; k <= 5; k++) await single(`抽题池 ${k}`, ['results-pool']);
    const { exam_id: examId } = await staffCall<{ exam_id: number }>(page, '/admin/exam/create', {
      name: '小规模笔试',
    });
    const fresh = await staffGet<EditorExamDetail>(page, '/admin/exam/detail', { exam_id: examId });
    const saved = await staffCall<{ revision: number }>(page, '/admin/exam/save-draft', {
      exam_id: examId,
      revision: fresh.revision,
      draft: {
        ...fresh.draft,
        sections: [
          { kind: 'major', title: '', items: fixed.map((id) => ({ question_id: id, points: 10 })) },
          {
            kind: 'major',
            title: '',
            draw: { count: 3, points: 2, folder_ids: [], tags: ['results-pool'], difficulty: [] },
          },
        ],
      },
    });
    await staffCall(page, '/admin/exam/publish', { exam_id: examId, revision: saved.revision });
    const phone = '13500135031';
    const invited = await staffCall<{ list: { anid: number }[] }>(page, '/admin/exam/invite', {
      exam_id: examId,
      phones: [{ phone, area_code: '86' }],
      send_sms: false,
    });
    const auth = await candidateToken(j.server, phone);
    const { attempt } = await enterByApi(j.server, auth, examId, invited.list[0]!.anid);
    const finished = await api<{ max_score: number }>(j.server, auth, 'POST', '/monitor/finish-exam', {
      exam_id: examId,
    });
    expect(finished.max_score).toBe(56);

    await page.goto(`/admin/results/${examId}`);
    await page.getByTestId(`results-row-${attempt.id}`).waitFor();
    // No pass mark: no column of it, and the figures say so instead of counting everyone undecided.
    await expect
      .poll(() => page.getByTestId('results-pass-counts').textContent(), { timeout: 15_000 })
      .toContain('未设置及格线');
    const heads = await page.getByTestId('results-table').locator('thead th').allTextContents();
    expect(heads).not.toContain('是否通过');
    // Professional questions only: no aptitude column, and no section switch for one section.
    expect(heads).toContain('专业');
    expect(heads).not.toContain('行测');
    expect(await page.getByTestId('results-section').count()).toBe(0);
    // The time chart has the paper's 8 questions, not the draw's whole pool.
    const timeLabels = page.getByTestId('time-chart').locator('svg text');
    await expect.poll(() => timeLabels.allTextContents(), { timeout: 30_000 }).toContain('Q8');
    expect(await timeLabels.allTextContents()).not.toContain('Q9');

    // One click exports: the file has the paper's 8 question columns, no empty ones, no aptitude or pass column.
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 60_000 }),
      page.getByTestId('export-xlsx').click(),
    ]);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile((await download.path())!);
    const header = (workbook.worksheets[0]!.getRow(1).values as unknown[]).slice(1).map(String);
    expect(header.filter((h) => /^第\d+题/.test(h))).toHaveLength(8);
    expect(header).not.toContain('行测得分');
    expect(header).not.toContain('是否通过');

    // The candidate's report: its question table fits the drawer, the points in view.
    await page.getByTestId(`results-open-${attempt.id}`).click();
    const table = page.getByTestId('report-questions');
    await table.locator('tbody tr.ant-table-row').first().waitFor();
    // Once the drawer has slid in: the table's right edge within the drawer and the window, nothing scrolled aside.
    const drawer = page.locator('.ant-drawer-content-wrapper');
    await expect
      .poll(async () => Math.round((await drawer.boundingBox())!.x + (await drawer.boundingBox())!.width))
      .toBe(1440);
    const fit = await page.locator('.ant-drawer-body').evaluate((body) => {
      const inner = body.querySelector('[data-testid="report-questions"] table')!;
      return {
        body: body.getBoundingClientRect().right,
        table: inner.getBoundingClientRect().right,
        overflow: body.scrollWidth - body.clientWidth,
      };
    });
    expect(fit.table).toBeLessThanOrEqual(fit.body);
    expect(fit.overflow).toBe(0);
    await page.screenshot({ path: 'e2e/screenshots/results-report-zh-1440.png' });
    expect(consoleErrors.filter((e) => !/status of 4\d\d/.test(e))).toEqual([]);
    await context.close();
  });

  it("item 3: the editor's full marks are what candidates are scored out of (evaluation items add none)", async () => {
    const { context, page } = await newPage(j.browser, j.server.baseUrl);
    await page.setViewportSize({ width: 1440, height: 900 });
    await staffLogin(page, ADMIN, '/admin/exams');
    // The demo exam (seeded first): the three sections, evaluation items among them.
    const exams = await staffGet<{ list: { id: number }[] }>(page, '/admin/exam/list', { sort: 'id', order: 'asc' });
    const demoId = exams.list[0]!.id;
    const preview = await staffCall<{ token: string; anid: number }>(page, '/admin/exam/preview', { exam_id: demoId });
    await enterByApi(j.server, preview.token, demoId, preview.anid);
    const scored = await api<{ max_score: number }>(j.server, preview.token, 'POST', '/monitor/finish-exam', {
      exam_id: demoId,
    });
    await page.goto(`/admin/exams/${demoId}`);
    const totals = page.getByTestId('exam-totals');
    await totals.waitFor();
    expect(Number(await totals.getAttribute('data-points'))).toBe(scored.max_score);
    expect(await totals.textContent()).toContain(`满分 ${scored.max_score}`);
    await context.close();
  });
  it('item 5: the screens follow what was just done: texts after inviting, the proctor tile and a dismissed flag', async () => {
    const { context, page, consoleErrors } = await authorPage('/admin/exams');
    const question = await staffCall<{ id: number }>(page, '/admin/bank/questions', {
      question: {
        kind: 'single',
        content: {
          stem: '<p>2 + 2 = ?</p>',
          options: ['A', 'B'].map((id) => ({ id, content: id === 'A' ? '4' : '5' })),
        },
        key: { option: 'A' },
      },
      default_score: 5,
    });
    const { exam_id: examId } = await staffCall<{ exam_id: number }>(page, '/admin/exam/create', { name: '监考笔试' });
    const fresh = await staffGet<EditorExamDetail>(page, '/admin/exam/detail', { exam_id: examId });
    const saved = await staffCall<{ revision: number }>(page, '/admin/exam/save-draft', {
      exam_id: examId,
      revision: fresh.revision,
      draft: {
        ...fresh.draft,
        sections: [{ kind: 'major', title: '', items: [{ question_id: question.id, points: 5 }] }],
      },
    });
    await staffCall(page, '/admin/exam/publish', { exam_id: examId, revision: saved.revision });

    // The invitations tab: its help points at the bulk ways below it, and a phone invited shows in the texts at once.
    await page.goto(`/admin/exams/${examId}?tab=invite`);
    const invite = page.getByTestId('exam-invite');
    await invite.waitFor();
    const help = await invite.textContent();
    expect(help).not.toContain('将在考生页面提供');
    expect(help).toContain('批量邀请');
    const phone = '13500135041';
    await page.getByTestId('invite-phones').fill(phone);
    await page.getByTestId('invite-submit').click();
    await page.getByTestId('invite-result').waitFor();
    await page.getByTestId('sms-table').locator('.ant-table-row', { hasText: phone }).waitFor({ timeout: 10_000 });

    // The candidate enters, skipping the optional camera and microphone: two flags for the proctor.
    const auth = await candidateToken(j.server, phone);
    const anid = (
      await staffCall<{ list: { anid: number }[] }>(page, '/admin/exam/invite', {
        exam_id: examId,
        phones: [{ phone, area_code: '86' }],
        send_sms: false,
      })
    ).list[0]!.anid;
    const { attempt } = await enterByApi(j.server, auth, examId, anid);

    expect(consoleErrors.filter((e) => !/status of 4\d\d/.test(e))).toEqual([]);
    await context.close();

    // The exam has no phone check: its tile (an admin proctors) says nothing of a phone, and the grid has no phone
    // filter.
    const proctor = await newPage(j.browser, j.server.baseUrl);
    await proctor.page.setViewportSize({ width: 1440, height: 900 });
    await staffLogin(proctor.page, ADMIN, `/admin/proctoring/${examId}`);
    await proctorChecks(proctor.page, proctor.consoleErrors, attempt.id);
    await proctor.context.close();
  });

  /** The proctor's grid and drawer of `attemptId`, on a page at the exam's grid. */
  async function proctorChecks(page: Page, consoleErrors: string[], attemptId: number) {
    const tile = page.getByTestId(`proctor-tile-${attemptId}`);
    await tile.waitFor();
    expect(await tile.textContent()).not.toContain('手机');
    expect(await page.getByTestId('grid-filter-phone_lost').count()).toBe(0);

    // Dismissing a flag updates the drawer without an error.
    await tile.click();
    const dismiss = page.getByTestId('proctor-attempt').locator('[data-testid^="decide-dismiss-"]').first();
    await dismiss.waitFor();
    await dismiss.click();
    await page.locator('.ant-message').getByText('已保存判定').waitFor();
    await expect
      .poll(() => page.getByTestId('proctor-attempt').locator('[data-testid^="decide-dismiss-"]').count())
      .toBeGreaterThan(0);
    await page.waitForTimeout(1_000);
    expect(consoleErrors.filter((e) => /invalid_response|unexpected response/.test(e))).toEqual([]);
    await page.screenshot({ path: 'e2e/screenshots/proctor-attempt-zh-1440.png' });
  }
});
