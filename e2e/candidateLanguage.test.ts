/**
 * The candidate's notices and the integrity records in the reader's language, never English glued into Chinese:
 * a refused picture upload, saves that keep failing (in the candidate's log and in the proctor's feed and
 * timeline), pictures taken offline (in the proctor's timeline), and a banner that names a lost session as the
 * cause rather than the network.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { RISK_EVENTS } from '@examhall/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserAvailable, newPage } from './support/browser.js';
import { api, authOf, enterDemoExam, examIdsOf, loginAs } from './support/candidate.js';
import { staffLogin } from './support/console.js';
import { writeFaceVideo } from './support/faceVideo.js';
import { useJourney } from './support/journey.js';
import { ADMIN } from './support/server.js';

/** Seconds between captures for this journey: the shortest an exam may set. */
const CAPTURE_INTERVAL_S = 5;

/** Opens the next single-choice or true/false question not in `skip` and picks option `option`; answers its id. */
async function answerChoice(page: Page, skip: readonly string[], option = 'A'): Promise<string> {
  const cells = page.locator('[data-testid="card-item"]');
  for (let n = 0; n < (await cells.count()); n++) {
    await cells.nth(n).click();
    const q = page.getByTestId('question');
    await q.waitFor();
    const type = await q.getAttribute('data-type');
    const id = (await q.getAttribute('data-id'))!;
    if ((type !== '1' && type !== '7') || skip.includes(id)) continue;
    await q.locator('label', { hasText: new RegExp(`^${option}\\.`) }).click();
    return id;
  }
  throw new Error('no single-choice question left');
}

describe.runIf(browserAvailable())("the candidate's notices and records in the reader's language", () => {
  const videoDir = mkdtempSync(path.join(tmpdir(), 'examhall-face-'));
  const faceVideo = writeFaceVideo({ file: path.join(videoDir, 'face.y4m') });
  const j = useJourney({}, [`--use-file-for-fake-video-capture=${faceVideo}`]);
  let db: Database.Database;

  beforeAll(() => {
    db = new Database(path.join(j.server.dataDir, 'examhall.sqlite'));
    const changed = db
      .prepare(`UPDATE exams SET settings = json_set(settings, '$.capture_interval', ?)`)
      .run(CAPTURE_INTERVAL_S).changes;
    expect(changed).toBeGreaterThan(0);
  });
  afterAll(() => {
    db?.close();
    rmSync(videoDir, { recursive: true, force: true });
  });

  it('words uploads, failed saves, offline pictures and a lost session in Chinese, for the candidate and the proctor', async () => {
    // page.route cannot see requests the service worker makes, so this page runs without one.
    const { context, page } = await newPage(j.browser, j.server.baseUrl, { serviceWorkers: 'block' });
    await page.setViewportSize({ width: 1440, height: 900 });
    await loginAs(page, j.server);
    await enterDemoExam(page);
    const { examId } = examIdsOf(page);
    const auth = await authOf(context);
    const state = () =>
      api<{ offlineImages: number; frames: unknown[] }>(j.server, auth, 'GET', '/monitor/state', { exam_id: examId });
    await expect.poll(async () => (await state()).frames.length, { timeout: 30_000 }).toBeGreaterThanOrEqual(1);

    // Storage refusing uploads: the notice is Chinese from its first word.
    await page.route('**/storage/**', (route) => route.fulfill({ status: 500, body: 'down' }));
    const uploadFailed = page.getByTestId('capture-upload-failed');
    await uploadFailed.waitFor({ timeout: (CAPTURE_INTERVAL_S + 10) * 1000 });
    expect(await uploadFailed.textContent()).toBe('监控画面上传失败，将在下次拍摄时重试。');
    await page.unroute('**/storage/**');
    await uploadFailed.waitFor({ state: 'detached', timeout: (CAPTURE_INTERVAL_S + 10) * 1000 });

    // Offline for more than a capture interval: the pictures taken meanwhile are uploaded on reconnect.
    await context.setOffline(true);
    await page.waitForTimeout((CAPTURE_INTERVAL_S + 2) * 1000);
    await context.setOffline(false);
    await expect.poll(async () => (await state()).offlineImages, { timeout: 30_000 }).toBeGreaterThanOrEqual(1);

    // Saves that keep failing while online: the banner says the network is unstable, and once they go through
    // the record of it carries the error's code, not its English message.
    let refused = 0;
    await page.route('**/api/answer/answer**', (route) => {
      refused += 1;
      return route.abort('failed');
    });
    const first = await answerChoice(page, []);
    const banner = page.getByTestId('net-banner');
    await banner.getByText('网络不稳定', { exact: false }).waitFor({ timeout: 20_000 });
    const unstableCount = () =>
      (
        db
          .prepare(`SELECT count(*) AS n FROM risk_records WHERE kind = 'risk' AND risk = ?`)
          .get(RISK_EVENTS.networkUnstable.id) as { n: number }
      ).n;
    // Three in a row make an unstable network (UNSTABLE_AFTER_FAILURES).
    await expect.poll(() => refused, { timeout: 30_000 }).toBeGreaterThanOrEqual(3);
    await page.unroute('**/api/answer/answer**');
    const firstCell = page.locator(`[data-testid="card-item"][data-id="${first}"]`);
    await expect.poll(() => firstCell.getAttribute('data-save'), { timeout: 45_000 }).toBe('saved');
    await expect.poll(unstableCount, { timeout: 20_000 }).toBe(1);

    // The session lost (the browser drops its cookie): the banner names the login, not the network.
    const cookie = (await context.cookies()).find((c) => c.name === 'auth')!;
    await context.clearCookies({ name: 'auth' });
    const second = await answerChoice(page, [first], 'B');
    await banner.getByText('登录已失效', { exact: false }).waitFor({ timeout: 20_000 });
    await page.waitForTimeout(4_000);
    expect(await banner.textContent()).not.toContain('网络不稳定');
    expect(unstableCount()).toBe(1);
    await context.addCookies([cookie]);
    const secondCell = page.locator(`[data-testid="card-item"][data-id="${second}"]`);
    await expect.poll(() => secondCell.getAttribute('data-save'), { timeout: 45_000 }).toBe('saved');

    // The proctor's feed and the attempt's timeline: every detail in Chinese.
    const attempt = db.prepare(`SELECT id FROM attempts ORDER BY id DESC LIMIT 1`).get() as { id: number };
    const unstable = db
      .prepare(`SELECT id FROM risk_records WHERE attempt_id = ? AND kind = 'risk' AND risk = ?`)
      .get(attempt.id, RISK_EVENTS.networkUnstable.id) as { id: number };
    const offlineFrame = db
      .prepare(`SELECT id, detail FROM risk_records WHERE attempt_id = ? AND kind = 'frame' AND detail != '' LIMIT 1`)
      .get(attempt.id) as { id: number; detail: string };
    const staff = await newPage(j.browser, j.server.baseUrl);
    const console_ = staff.page;
    await console_.setViewportSize({ width: 1440, height: 900 });
    await staffLogin(console_, ADMIN, `/admin/proctoring/${examId}`);
    const failedSends = '连续 3 次保存失败（网络连接失败，请检查网络后重试）';
    const feedItem = console_.getByTestId(`proctor-risk-${unstable.id}`);
    await feedItem.getByText(failedSends).waitFor();
    expect(await feedItem.textContent()).not.toContain('Failed to fetch');
    await feedItem.getByRole('link').click();
    const timeline = console_.getByTestId('proctor-attempt').getByTestId('proctor-timeline');
    await timeline.getByTestId(`timeline-record-${unstable.id}`).getByText(failedSends).waitFor();
    await timeline.getByTestId(`timeline-record-${offlineFrame.id}`).getByText('断网时拍摄，恢复连接后上传').waitFor();
    for (const d of await timeline.getByTestId('timeline-detail').allTextContents())
      expect(d, 'a timeline detail in English').not.toMatch(/^(offline|.*Failed to fetch.*)$/);
    await staff.context.close();

    // The candidate's own integrity log after the submit says the same.
    await page.getByTestId('exam-submit').click();
    await page.getByTestId('submit-confirm').click();
    await page.waitForURL(/\/result$/, { timeout: 45_000 });
    await page.getByTestId('integrity-toggle').click();
    const record = page.locator(`[data-testid="integrity-record"][data-risk="${RISK_EVENTS.networkUnstable.id}"]`);
    expect(await record.getByTestId('integrity-detail').textContent()).toBe(failedSends);
    await context.close();
  }, 300_000);
});
