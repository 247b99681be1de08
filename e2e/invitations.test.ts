/**
 * SMS invitations end to end: an admin pastes phones into the demo exam's Invitations tab (a bad line is named,
 * then fixed), starts the bulk invitation and watches its job finish; the SMS gateway receives one text per
 * phone with the candidate's own link; one candidate follows the link, logs in by SMS code and sees the exam;
 * then the admin resends one invitation's text and revokes another with a reason (a second revoke is skipped);
 * a second resend of the same invitation within the resend interval is held back, and the console says why.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { describeViolations, scanA11y } from './support/a11y.js';
import { browserAvailable, newPage } from './support/browser.js';
import { completeProfile } from './support/candidate.js';
import { staffLogin } from './support/console.js';
import { useJourney } from './support/journey.js';
import { ADMIN, type TestServer } from './support/server.js';
import type { RecordedText } from './support/smsRecorder.js';

const FOLLOWS = '13700137001';
const RESENT = '13700137002';
const REVOKED = '51234567';

/** Waits until `count` texts of `purpose` have reached `phone`; answers the latest. */
async function textTo(server: TestServer, phone: string, purpose: string, count = 1): Promise<RecordedText> {
  const of = () => server.sms.texts().filter((m) => m.phone === phone && m.purpose === purpose);
  await expect.poll(() => of().length, { timeout: 20_000, interval: 200 }).toBeGreaterThanOrEqual(count);
  return of().at(-1)!;
}

/** Fails on any WCAG A/AA violation axe finds on the page. */
async function expectAccessible(page: Page, where: string): Promise<void> {
  // The pointer rests where nothing is hovered: the scan judges colours at rest.
  await page.mouse.move(0, 0);
  const violations = await scanA11y(page);
  expect(violations, describeViolations(where, violations)).toEqual([]);
}

/** The console's toast (antd message) showing `text`. */
function toast(page: Page, text: string | RegExp) {
  return page.locator('.ant-message').getByText(text).first();
}

describe.runIf(browserAvailable())('invitations journey', () => {
  const j = useJourney();

  it('invites pasted phones as a job, texts each its link, and the link leads a candidate to the exam', async () => {
    const { server } = j;
    const staff = await newPage(j.browser, server.baseUrl);
    const page = staff.page;
    await staffLogin(page, ADMIN, '/admin/exams');
    const open = page.locator('[data-testid^="exam-open-"]').first();
    const examId = Number((await open.getAttribute('data-testid'))!.replace('exam-open-', ''));
    const examName = (await open.textContent())!.trim();
    await page.goto(`/admin/exams/${examId}?tab=invite`);

    // The invitation template's preview fills in the exam's name; its size is counted in SMS segments.
    await page.getByTestId('sms-invitation-preview').getByText(examName, { exact: false }).waitFor();
    expect(await page.getByTestId('sms-invitation-size').textContent()).toMatch(/条短信/);
    await page.getByTestId('sms-table').getByText('还没有短信').waitFor();

    // Three lines, one of them not a phone: it is named by its line and the invitation waits.
    const phones = page.getByTestId('bulk-phones');
    await phones.fill(`${FOLLOWS}\nnot-a-phone\n+852 ${REVOKED}`);
    await page.getByTestId('bulk-invalid').getByText('第 2 行：not-a-phone').waitFor();
    expect(await page.getByTestId('bulk-submit').isDisabled()).toBe(true);
    await expectAccessible(page, 'invitations tab with a bad line');
    await phones.fill(`${FOLLOWS}\n${RESENT}\n+852 ${REVOKED}`);
    await page.getByTestId('bulk-summary').getByText('有效 3 个，无效 0 行').waitFor();
    await page.getByTestId('bulk-submit').click();

    // The job's progress shows until it is done, then what it made.
    await page.locator('[data-testid="bulk-job"][data-state="done"]').waitFor({ timeout: 30_000 });
    const result = page.getByTestId('bulk-result');
    await result.waitFor();
    expect(await result.locator('.ant-descriptions-item-content').allTextContents()).toEqual(['3', '0', '3', '0']);

    // The periodic dispatcher texts each phone its own link.
    const links = new Map<string, string>();
    for (const phone of [FOLLOWS, RESENT, REVOKED]) {
      const text = await textTo(server, phone, 'invitation');
      const link = new RegExp(`${server.baseUrl}/exam/${examId}/\\d+`).exec(text.text)?.[0];
      expect(link, text.text).toBeDefined();
      expect(text.text).toContain(examName);
      links.set(phone, link!);
    }
    expect(new Set(links.values()).size).toBe(3);
    expect(server.sms.texts().find((m) => m.phone === REVOKED)?.area_code).toBe('852');
    // The texts table follows their delivery.
    await page.getByTestId('sms-counts').getByText('已发送 3').waitFor({ timeout: 20_000 });
    await expectAccessible(page, 'invitations tab after the job');

    // The candidate follows the link: login by SMS code, the profile once, then the exam's detail.
    const cand = await newPage(j.browser, server.baseUrl);
    await cand.page.goto(links.get(FOLLOWS)!);
    await cand.page.waitForURL(/\/login\?redirect=/);
    await cand.page.getByTestId('phone-input').fill(FOLLOWS);
    await cand.page.getByTestId('send-code').click();
    await cand.page.getByTestId('code-input').fill(await server.sms.waitForCode(FOLLOWS));
    await cand.page.getByTestId('login-submit').click();
    await cand.page.getByTestId('profile-form').or(cand.page.getByTestId('entry-start')).waitFor();
    if (await cand.page.getByTestId('profile-form').isVisible()) await completeProfile(cand.page);
    await cand.page.waitForURL(new RegExp(`${new URL(links.get(FOLLOWS)!).pathname}$`));
    expect((await cand.page.getByTestId('entry-exam-name').textContent())?.trim()).toBe(examName);
    await cand.page.getByTestId('entry-start').waitFor();
    expect(cand.consoleErrors).toEqual([]);
    await cand.context.close();

    // Schedule tab: resend one invitation's text, revoke another with a reason.
    await page.goto(`/admin/exams/${examId}?tab=schedule`);
    const table = page.getByTestId('schedule-invitations');
    await table
      .getByRole('row', { name: new RegExp(RESENT) })
      .getByTestId('row-resend')
      .click();
    await toast(page, /已安排重发 1 条短信/).waitFor();
    const resent = await textTo(server, RESENT, 'resend');
    expect(resent.text).toContain(links.get(RESENT)!);

    const revokeRow = table.getByRole('row', { name: new RegExp(REVOKED) });
    await revokeRow.getByTestId('row-revoke').click();
    const ok = page.getByTestId('revoke-ok');
    expect(await ok.isDisabled()).toBe(true);
    await page.getByTestId('revoke-reason').fill('应聘者已撤回申请');
    await ok.click();
    await toast(page, '已撤销 1 个邀请').waitFor();
    await revokeRow.getByTestId('invitation-revoked').waitFor();
    expect(await revokeRow.getByTestId('row-revoke').count()).toBe(0);
    // Both selected for a resend: the revoked one is skipped, and named.
    const anid = links.get(REVOKED)!.split('/').at(-1)!;
    await revokeRow.getByRole('checkbox').check();
    await table
      .getByRole('row', { name: new RegExp(FOLLOWS) })
      .getByRole('checkbox')
      .check();
    await page.getByTestId('invitations-resend').click();
    await page.getByTestId('invitations-skipped').getByText(`#${anid}`).waitFor();
    await textTo(server, FOLLOWS, 'resend');
    expect(server.sms.texts().filter((m) => m.phone === REVOKED)).toHaveLength(1);
    await expectAccessible(page, 'schedule tab with the skipped invitations');
    await page.locator('.ant-modal-confirm-btns button').click();

    // The same invitation again, moments after its resend: held back by the resend interval, and said so.
    await table
      .getByRole('row', { name: new RegExp(RESENT) })
      .getByTestId('row-resend')
      .click();
    await toast(page, /同一邀请 5 分钟内只能重发一次/).waitFor();
    await page.goto(`/admin/exams/${examId}?tab=invite`);
    await page.getByTestId('sms-counts').getByText('已暂缓 1').click();
    await page.getByTestId('sms-held-reason').getByText('重发间隔未到').waitFor();
    expect(server.sms.texts().filter((m) => m.phone === RESENT && m.purpose === 'resend')).toHaveLength(1);
    await expectAccessible(page, 'texts with one held back');
    // The held resend's answer (429) is the only failed load.
    expect(staff.consoleErrors.filter((e) => !/status of 429/.test(e))).toEqual([]);
    await staff.context.close();
  }, 240_000);
});
