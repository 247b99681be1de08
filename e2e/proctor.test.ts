import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { facePhoto, flatPhoto } from '../packages/server/src/bench/facePhotos.js';
import { browserAvailable, newPage } from './support/browser.js';
import { openSse } from '../packages/server/src/test/sse.js';
import { api, candidateToken, enterByApi } from './support/candidate.js';
import { useJourney } from './support/journey.js';
import { ADMIN, DEMO_PHONE } from './support/server.js';

describe.runIf(browserAvailable())('proctor console journey', () => {
  const j = useJourney();

  it('shows a risk event raised by a candidate within 2 s, and a warning typed in the console reaches the candidate within 2 s', async () => {
    const { server } = j;
    const auth = await candidateToken(server, DEMO_PHONE);
    const exams = await api<{ list: { id: number; anid: number }[] }>(server, auth, 'GET', '/exam/index');
    const { id: examId, anid } = exams.list[0]!;
    const started = await enterByApi(server, auth, examId, anid);
    const attemptId = started.attempt.id;
    const events = await openSse(`${server.baseUrl}/api/monitor/events?exam_id=${examId}&auth=${auth}`);
    expect(events.status).toBe(200);
    await events.next((e) => e.type === 'hello', 5_000);

    const { context, page, consoleErrors } = await newPage(j.browser, server.baseUrl);
    await page.goto('/admin/login');
    await page.getByTestId('staff-phone').fill(ADMIN.phone);
    await page.getByTestId('staff-password').fill(ADMIN.password);
    await page.getByTestId('staff-login-submit').click();
    await page.getByTestId('admin-console').waitFor();
    await page.getByTestId('nav-proctoring').click();
    await page.getByTestId(`proctor-exam-${examId}`).click();
    await page.waitForURL(new RegExp(`/admin/proctoring/${examId}$`));
    const tile = page.getByTestId(`proctor-tile-${attemptId}`);
    await tile.waitFor();
    await page.locator('[data-testid="proctor-live"][data-connected="1"]').waitFor();
    // The candidate's open stream shows them online, and the time left ticks.
    await tile.getByText('在线', { exact: true }).waitFor();
    await expect.poll(() => tile.getByTestId('tile-phase').textContent()).toMatch(/^剩余 \d/);
    // The checks the candidate skipped (camera, microphone, screen, phone) are risk records already.
    const skipped = Number(/\d+/.exec((await tile.getByTestId('tile-risk-count').textContent()) ?? '')?.[0]);
    expect(skipped).toBe(4);

    // The candidate's page reports leaving fullscreen, as /monitor/record-risk does it (a form).
    const sent = Date.now();
    const res = await fetch(`${server.baseUrl}/api/monitor/record-risk?auth=${auth}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        exam_id: String(examId),
        risk: '3',
        trigger_time: String(Date.now()),
        detail: 'left fullscreen',
        client_id: randomUUID(),
      }).toString(),
    });
    const recordId = ((await res.json()) as { data: { id: number } }).data.id;
    await page.getByTestId(`proctor-risk-${recordId}`).waitFor({ timeout: 2_000 });
    await expect
      .poll(() => tile.getByTestId('tile-risk-count').textContent(), { timeout: 2_000 })
      .toBe(`风险 ${skipped + 1}`);
    expect(Date.now() - sent).toBeLessThan(2_000);
    expect(await page.getByTestId(`proctor-risk-${recordId}`).textContent()).toContain('退出全屏');

    // The attempt opens from the keyboard; its timeline has the event.
    await tile.focus();
    await page.keyboard.press('Enter');
    const drawer = page.getByTestId('proctor-attempt');
    await drawer.getByTestId(`timeline-record-${recordId}`).getByText('退出全屏').waitFor();

    // The proctor sets the candidate's ID photo: a picture without a face is refused, a face is kept and shown.
    const idPhoto = drawer.getByTestId('proctor-id-photo');
    await idPhoto.getByText('没有证件照', { exact: false }).waitFor();
    const picker = idPhoto.locator('input[type=file]');
    await picker.setInputFiles({ name: 'wall.png', mimeType: 'image/png', buffer: flatPhoto() });
    await idPhoto.getByTestId('proctor-id-photo-error').getByText('照片中必须恰好有一张人脸').waitFor();
    await picker.setInputFiles({ name: 'id.jpg', mimeType: 'image/jpeg', buffer: facePhoto('a') });
    await idPhoto.getByTestId('proctor-id-photo-image').waitFor();
    expect(await idPhoto.getByTestId('proctor-id-photo-error').count()).toBe(0);

    // A warning typed in the console reaches the candidate's stream within 2 s.
    await drawer.getByTestId('proctor-warn-text').fill('请保持面部在摄像头画面内');
    const typed = Date.now();
    await drawer.getByTestId('proctor-warn-send').click();
    const warning = await events.next((e) => e.type === 'warning', 2_000);
    expect(Date.now() - typed).toBeLessThan(2_000);
    expect(warning).toMatchObject({ warning: { text: '请保持面部在摄像头画面内' } });
    await drawer.getByTestId('proctor-warnings').getByText('请保持面部在摄像头画面内').waitFor();
    // Unread until the candidate acknowledges it; the drawer hears of the read by itself.
    const warningId = (warning as { warning: { id: number } }).warning.id;
    const warningItem = drawer.getByTestId(`proctor-warning-${warningId}`);
    await warningItem.getByTestId('warning-unread').getByText('未读').waitFor();
    await api(server, auth, 'POST', '/monitor/warning-read', { exam_id: examId, warning_id: warningId });
    await warningItem.getByTestId('warning-read').getByText(/已读$/).waitFor({ timeout: 2_000 });

    // The flag is dismissed with an internal note and a note to the candidate; the attempt goes on.
    await drawer.getByTestId(`decide-note-${recordId}`).fill('窗口调整');
    await drawer.getByTestId(`decide-candidate-note-${recordId}`).fill('请勿调整窗口大小');
    await drawer.getByTestId(`decide-dismiss-${recordId}`).click();
    await drawer.getByTestId(`timeline-record-${recordId}`).getByText('已排除').waitFor();
    await drawer.getByTestId(`timeline-record-${recordId}`).getByText('备注：窗口调整').waitFor();
    await drawer.getByTestId(`timeline-record-${recordId}`).getByText('给考生：请勿调整窗口大小').waitFor();

    // Ending the attempt asks for a reason; the candidate's stream hears the end with it.
    await drawer.getByTestId('proctor-end').click();
    await page.getByTestId('proctor-end-reason').fill('考场有其他人');
    await page.getByRole('button', { name: '结束作答' }).last().click();
    const ended = await events.next((e) => e.type === 'ended', 2_000);
    expect(ended).toMatchObject({ reason: 'proctor: 考场有其他人', attempt: { id: attemptId, phase: 3 } });
    await drawer.getByTestId('proctor-finish-reason').getByText('监考老师结束：考场有其他人').waitFor();
    await expect.poll(() => tile.getByTestId('tile-phase').textContent()).toBe('已交卷');
    // The candidate's own log carries the note written to them, never the internal one.
    const log = await api(server, auth, 'GET', '/monitor/integrity-log', { exam_id: examId });
    expect(JSON.stringify(log)).toContain('请勿调整窗口大小');
    expect(JSON.stringify(log)).not.toContain('窗口调整');

    events.close();
    expect(consoleErrors.filter((e) => !/status of 4\d\d/.test(e))).toEqual([]);
    await context.close();
  });
});
