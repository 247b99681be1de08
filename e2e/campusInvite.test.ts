/**
 * A campus exam's invitations end to end. An admin makes a team and its author. The author publishes an exam, then
 * on its Invitations tab uploads an xlsx list of candidates: the preview names the one bad row, a fixed file
 * imports every candidate and invites them as a job. The SMS recorder gets one text with its own link per
 * candidate. One candidate follows the link, logs in, passes the checks, answers and submits, while the console's
 * Candidates tab (never reloaded) shows the status move: logged in, in progress, submitted. Another gets 15
 * extra minutes on the Schedule tab and sees the longer length and clock.
 */
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { describeViolations, scanA11y } from './support/a11y.js';
import { browserAvailable, newPage } from './support/browser.js';
import { api, authOf, completeProfile, enterByApi, loginAs } from './support/candidate.js';
import { inputOf, publishOneQuestionExam, staffCall, staffLogin, type StaffAccount } from './support/console.js';
import { useJourney } from './support/journey.js';
import { passMonitorChecks } from './support/monitor.js';
import { ADMIN, type TestServer } from './support/server.js';

const AUTHOR: StaffAccount = { phone: '13600136500', password: 'campus-author-1' };
/** The list's candidates: the first takes the exam, the second gets extra time, the third is only invited. */
const TAKES = '13700137501';
const EXTRA = '13700137502';
const ONLY_INVITED = '13700137503';
const MINUTE = 60_000;
const EXAM_MINUTES = 30;

/** The candidate list as an xlsx with the template's Chinese headers; `bad` puts a phone that is none in row 3. */
async function candidateList(bad: boolean): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('考生');
  sheet.addRow(['手机号', '姓名', '学校', '专业', '学历', '毕业年份']);
  sheet.addRow([TAKES, '李雷', '清华大学', '计算机科学与技术', '本科', 2027]);
  sheet.addRow([bad ? '1370013' : EXTRA, '韩梅梅', '北京大学', '软件工程', '硕士', 2027]);
  sheet.addRow([ONLY_INVITED, '王芳', '复旦大学', '数学', '本科', 2027]);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** Waits until the recorder holds the invitation text to `phone`; answers the link in it. */
async function invitationLink(server: TestServer, phone: string, examId: number): Promise<string> {
  const texts = () => server.sms.texts().filter((m) => m.phone === phone && m.purpose === 'invitation');
  await expect.poll(() => texts().length, { timeout: 30_000, interval: 200 }).toBe(1);
  const link = new RegExp(`${server.baseUrl}/exam/${examId}/\\d+`).exec(texts()[0]!.text)?.[0];
  expect(link, texts()[0]!.text).toBeDefined();
  return link!;
}

describe.runIf(browserAvailable())('campus invitation journey', () => {
  const j = useJourney();

  it('imports an xlsx list (a bad row shown, then fixed), invites and texts everyone; the console follows a candidate live; extra time lengthens the clock', async () => {
    const { server } = j;
    // The admin makes a team and its author.
    const admin = await newPage(j.browser, server.baseUrl);
    await staffLogin(admin.page, ADMIN, '/admin');
    const team = await staffCall<{ id: number }>(admin.page, '/admin/teams', { name: '校园招聘组' });
    await staffCall(admin.page, '/admin/staff', {
      phone: AUTHOR.phone,
      area_code: '86',
      name: '校招出题人',
      role: 'author',
      password: AUTHOR.password,
      team_id: team.id,
    });
    await admin.context.close();

    // The author publishes an exam and opens its Invitations tab.
    const staff = await newPage(j.browser, server.baseUrl);
    const page = staff.page;
    await staffLogin(page, AUTHOR, '/admin/exams');
    const exam = { name: '2027 校园招聘笔试', examId: 0 };
    exam.examId = await publishOneQuestionExam(page, {
      name: exam.name,
      opensAt: Date.now() - 60 * MINUTE,
      minutes: EXAM_MINUTES,
    });
    await page.goto(`/admin/exams/${exam.examId}?tab=invite`);
    await page.getByTestId('invite-from-list').click();
    const drawer = page.locator('.ant-drawer');
    await drawer.getByText(`导入考生并邀请到「${exam.name}」`).waitFor();
    const fileInput = drawer.locator('input[type=file]');
    const send = async (bad: boolean) =>
      fileInput.setInputFiles({
        name: '2027校招名单.xlsx',
        mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        buffer: await candidateList(bad),
      });

    // The bad row is named by its sheet row, and nothing can be imported.
    await send(true);
    const counts = page.getByTestId('candidate-import-counts');
    await counts.waitFor();
    expect(await counts.textContent()).toContain('有错误 1');
    const preview = page.getByTestId('candidate-import-preview');
    const badRow = preview.locator('tr[data-row-key="3"]');
    expect(await badRow.textContent()).toContain('有错误');
    expect(await badRow.locator('.ant-typography-danger').count()).toBeGreaterThan(0);
    expect(await page.getByTestId('candidate-import-start').isDisabled()).toBe(true);
    await page.mouse.move(0, 0);
    const violations = await scanA11y(page);
    expect(violations, describeViolations('the import drawer with a bad row', violations)).toEqual([]);

    // The fixed file imports the three and invites them, texting each.
    await page.getByTestId('candidate-import-again').click();
    await send(false);
    await expect.poll(async () => counts.textContent()).toContain('新增 3');
    expect(await counts.textContent()).toContain('有错误 0');
    expect(await page.getByTestId('candidate-invite-sms').getAttribute('aria-checked')).toBe('true');
    await page.getByTestId('candidate-import-start').click();
    await page.getByTestId('candidate-import-done').waitFor({ timeout: 60_000 });
    const result = page.getByTestId('bulk-result');
    await result.waitFor({ timeout: 60_000 });
    // Invitations made, existing, texts queued, unknown candidates.
    expect(await result.locator('.ant-descriptions-item-content').allTextContents()).toEqual(['3', '0', '3', '0']);
    await drawer.locator('.ant-drawer-close').click();

    // The recorder receives one text per candidate, each with its own link to this exam.
    const links = new Map<string, string>();
    for (const phone of [TAKES, EXTRA, ONLY_INVITED])
      links.set(phone, await invitationLink(server, phone, exam.examId));
    expect(new Set(links.values()).size).toBe(3);
    const anidOf = (phone: string) => links.get(phone)!.split('/').at(-1)!;

    // The console's Candidates tab: everyone invited; it is never reloaded from here on.
    await page.goto(`/admin/exams/${exam.examId}?tab=candidates`);
    const statusOf = (phone: string) =>
      page.locator(`tr[data-row-key="${anidOf(phone)}"] [data-testid="exam-cand-status"]`).getAttribute('data-status');
    for (const phone of [TAKES, EXTRA, ONLY_INVITED]) await expect.poll(() => statusOf(phone)).toBe('invited');
    const live = { timeout: 30_000, interval: 500 };

    // The first candidate follows the link and logs in: the console shows them logged in.
    const cand = await newPage(j.browser, server.baseUrl);
    await cand.page.goto(links.get(TAKES)!);
    await cand.page.waitForURL(/\/login\?redirect=/);
    await cand.page.getByTestId('phone-input').fill(TAKES);
    await cand.page.getByTestId('send-code').click();
    await cand.page.getByTestId('code-input').fill(await server.sms.waitForCode(TAKES));
    await cand.page.getByTestId('login-submit').click();
    await cand.page.getByTestId('profile-form').or(cand.page.getByTestId('entry-start')).waitFor();
    if (await cand.page.getByTestId('profile-form').isVisible()) await completeProfile(cand.page);
    await cand.page.waitForURL(new RegExp(`${new URL(links.get(TAKES)!).pathname}$`));
    expect((await cand.page.getByTestId('entry-exam-name').textContent())?.trim()).toBe(exam.name);
    await expect.poll(() => statusOf(TAKES), live).toBe('logged_in');

    // Checks, pledge, the exam: in progress.
    await cand.page.getByTestId('entry-start').click();
    await cand.page.waitForURL(/\/monitor$/);
    await passMonitorChecks(cand.page);
    await cand.page.waitForURL(/\/answer$/);
    const question = cand.page.getByTestId('question');
    await question.waitFor();
    await expect.poll(() => statusOf(TAKES), live).toBe('in_progress');

    // An answer and the submit: submitted.
    await question.locator('label', { hasText: /^A\./ }).click();
    await expect.poll(() => question.getByRole('radio', { name: /^A\./ }).isChecked()).toBe(true);
    await cand.page.getByTestId('exam-submit').click();
    await cand.page.getByTestId('submit-confirm').click();
    await cand.page.waitForURL(/\/result$/, { timeout: 45_000 });
    await expect.poll(() => statusOf(TAKES), live).toBe('submitted');
    expect(await statusOf(ONLY_INVITED)).toBe('invited');
    expect(await page.getByTestId('exam-cand-count-submitted').textContent()).toContain('1');
    expect(cand.consoleErrors).toEqual([]);
    await cand.context.close();

    // The second candidate gets 15 extra minutes on the Schedule tab.
    await page.goto(`/admin/exams/${exam.examId}?tab=schedule`);
    const row = page.getByTestId('schedule-invitations').getByRole('row', { name: new RegExp(EXTRA) });
    await row.getByRole('checkbox').check();
    await page.getByTestId('invitations-extra').click();
    await inputOf(page.getByTestId('extra-value')).fill('15');
    await page.locator('.ant-modal-footer:visible .ant-btn-primary').click();
    await row.filter({ hasText: '15 分钟' }).waitFor();
    expect(staff.consoleErrors).toEqual([]);
    await staff.context.close();

    // They see the longer length in their list, and a clock of the longer length in the exam.
    const other = await newPage(j.browser, server.baseUrl);
    await loginAs(other.page, server, EXTRA);
    const item = other.page.locator(`[data-testid="exam-item"][data-exam="${exam.examId}"]`);
    const length = item.getByTestId('exam-time');
    await expect.poll(() => length.getAttribute('data-minutes')).toBe(String(EXAM_MINUTES + 15));
    expect(await length.textContent()).toContain('延长 15 分钟');
    const auth = await authOf(other.context);
    const listed = await api<{ list: { id: number; anid: number }[] }>(server, auth, 'GET', '/exam/index');
    const anid = listed.list.find((e) => e.id === exam.examId)!.anid;
    expect(String(anid)).toBe(anidOf(EXTRA));
    await enterByApi(server, auth, exam.examId, anid);
    await other.page.goto(`/exam/${exam.examId}/${anid}/answer`);
    const timer = other.page.getByTestId('exam-timer');
    await timer.waitFor();
    const remaining = Number(await timer.getAttribute('data-remaining-ms'));
    expect(remaining).toBeGreaterThan((EXAM_MINUTES + 14) * MINUTE);
    expect(remaining).toBeLessThanOrEqual((EXAM_MINUTES + 15) * MINUTE);
    expect(other.consoleErrors).toEqual([]);
    await other.context.close();
  }, 300_000);
});
