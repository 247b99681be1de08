import path from 'node:path';
import Database from 'better-sqlite3';
import { devices, type BrowserContext, type Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { describeDetail, RISK_EVENTS, type ProctorAttemptData, type WarningView } from '@examhall/contract';
import { browserAvailable, newPage } from './support/browser.js';
import { api, authOf, candidateToken, enterDemoExam, examIdsOf, loginAs } from './support/candidate.js';
import { useJourney } from './support/journey.js';
import { goOffline } from './support/offline.js';
import { ADMIN, type TestServer } from './support/server.js';

/*
 * Every risk event of the catalogue a browser can raise, raised in Chromium the way a candidate
 * would, and read back from the server's database with its id and category. Phone use (7) is not
 * here: it comes from the server's object detection on the pictures (the face check), not from the page.
 * Skipped checks (15..18) are recorded by /monitor/check in the device-check journey.
 */

interface StoredRisk {
  id: number;
  risk: number;
  category: number;
  detail: string;
}

/** The risk records the server holds for an attempt, read straight from its SQLite file. */
function risksOf(server: TestServer, attemptId: number): StoredRisk[] {
  const db = new Database(path.join(server.dataDir, 'examhall.sqlite'), { readonly: true, fileMustExist: true });
  try {
    return db
      .prepare('SELECT id, risk, category, detail FROM risk_records WHERE attempt_id = ? AND risk <> 0 ORDER BY id')
      .all(attemptId) as StoredRisk[];
  } finally {
    db.close();
  }
}

/** The attempt's phase and why it ended, from the database. */
function attemptRow(server: TestServer, attemptId: number): { phase: number; finish_reason: string | null } {
  const db = new Database(path.join(server.dataDir, 'examhall.sqlite'), { readonly: true, fileMustExist: true });
  try {
    return db.prepare('SELECT phase, finish_reason FROM attempts WHERE id = ?').get(attemptId) as {
      phase: number;
      finish_reason: string | null;
    };
  } finally {
    db.close();
  }
}

type RiskKey = keyof typeof RISK_EVENTS;

/**
 * Waits until the server holds `count` records of the event (those whose detail matches `detail`,
 * when given: the server's face check records camera problems of its own), each with the catalogue's category.
 */
async function expectRisk(
  server: TestServer,
  attemptId: number,
  key: RiskKey,
  options: { count?: number; detail?: RegExp; timeout?: number } = {},
): Promise<StoredRisk[]> {
  const { id, type } = RISK_EVENTS[key];
  const count = options.count ?? 1;
  const matching = () =>
    risksOf(server, attemptId).filter((r) => r.risk === id && (!options.detail || options.detail.test(r.detail)));
  await expect
    .poll(() => matching().length, {
      timeout: options.timeout ?? 20_000,
      message: `risk ${key} (${id}) recorded ${count} time(s)`,
    })
    .toBe(count);
  const found = matching();
  for (const r of found) expect(r.category, `category of ${key}`).toBe(type);
  return found;
}

/** Headless Chromium pretends every page has focus; without that a page brought to front takes it from the others. */
async function realFocus(context: BrowserContext, page: Page): Promise<void> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setFocusEmulationEnabled', { enabled: false });
}

/** Another page of the browser comes to front for a moment, then the exam page again. */
async function switchAway(context: BrowserContext, page: Page): Promise<void> {
  const other = await context.newPage();
  await other.goto('about:blank');
  await other.bringToFront();
  await expect.poll(() => page.evaluate(() => document.hasFocus())).toBe(false);
  await page.bringToFront();
  await other.close();
  await expect.poll(() => page.evaluate(() => document.hasFocus())).toBe(true);
}

/** Calls a staff API with the admin's token. */
async function staffCall<T>(server: TestServer, method: 'GET' | 'POST', p: string, body?: unknown): Promise<T> {
  const login = await fetch(`${server.baseUrl}/api/admin/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  const token = ((await login.json()) as { data: { token: string } }).data.token;
  const res = await fetch(`${server.baseUrl}/api${p}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const json = (await res.json()) as { status: string; msg: string; data: T };
  if (json.status !== 'success') throw new Error(`${method} ${p}: ${res.status} ${json.msg}`);
  return json.data;
}

/** Fires a clipboard event carrying `text` at the first element matching `selector`; answers false when it was stopped. */
function clipboard(page: Page, type: 'copy' | 'paste', selector: string, text: string): Promise<boolean> {
  return page.evaluate(
    ([type, selector, text]) => {
      const data = new DataTransfer();
      data.setData('text/plain', text);
      const target = document.querySelector(selector) ?? document.body;
      return target.dispatchEvent(new ClipboardEvent(type, { clipboardData: data, bubbles: true, cancelable: true }));
    },
    [type, selector, text] as const,
  );
}

describe.runIf(browserAvailable())('risk events raised in the browser', () => {
  const j = useJourney();
  /** The demo attempt, shared by the journeys below in order; the last one ends it. */
  const shared = { examId: 0, anid: 0, attemptId: 0, auth: '' };

  /**
   * Opens the exam page of the attempt the first journey started, in a fresh browser context holding
   * the candidate's token (a new SMS login would wait for the code's resend interval).
   */
  async function openExam(context: BrowserContext, page: Page): Promise<void> {
    await context.addCookies([{ name: 'auth', value: shared.auth, url: j.server.baseUrl }]);
    await page.goto(`/exam/${shared.examId}/${shared.anid}/answer`);
    await page.getByTestId('question').waitFor();
  }

  it('records screen switch (1), leaving fullscreen (3), outside paste (4), translation (19), offline (10), unstable network (20), camera (11), microphone (13), screen sharing (14) and second camera (12)', async () => {
    const { context, page } = await newPage(j.browser, j.server.baseUrl, { serviceWorkers: 'block' });
    // Keeps every media track the page opens within reach of the test.
    await context.addInitScript(() => {
      const w = window as unknown as { e2eTracks: { source: string; track: MediaStreamTrack }[] };
      w.e2eTracks = [];
      const media = navigator.mediaDevices as MediaDevices | undefined;
      if (!media) return;
      const keep = (source: string, stream: MediaStream) => {
        for (const track of stream.getTracks()) w.e2eTracks.push({ source, track });
        return stream;
      };
      const userMedia = media.getUserMedia.bind(media);
      media.getUserMedia = async (c) => keep('user', await userMedia(c));
      const displayMedia = media.getDisplayMedia.bind(media);
      media.getDisplayMedia = async (c) => keep('display', await displayMedia(c));
    });
    let phoneContext: BrowserContext | null = null;
    await loginAs(page, j.server);
    await enterDemoExam(page, async (link) => {
      // The phone as second camera: a mobile-emulated context of its own that opens the QR code's link.
      phoneContext = await j.browser.newContext({ ...devices['Pixel 7'], locale: 'zh-CN' });
      const phone = await phoneContext.newPage();
      await phone.goto(link);
      await expect
        .poll(async () => Number(await phone.getByTestId('phone-status').getAttribute('data-sent')), {
          timeout: 20_000,
        })
        .toBeGreaterThan(0);
    });
    const { examId, anid } = examIdsOf(page);
    const auth = await authOf(context);
    const started = await api<{ attempt: { id: number; cuts_left: number } }>(
      j.server,
      auth,
      'POST',
      '/monitor/start-exam',
      { exam_id: examId, anid },
    );
    Object.assign(shared, { examId, anid, attemptId: started.attempt.id, auth });
    const attemptId = started.attempt.id;
    const cuts = started.attempt.cuts_left;
    expect(cuts).toBe(3);
    await expect.poll(() => page.getByTestId('cuts-left').getAttribute('data-left')).toBe('3');

    // 1: another page comes to front. One departure is one record, and the page says how many are left.
    await realFocus(context, page);
    await switchAway(context, page);
    const [switched] = await expectRisk(j.server, attemptId, 'screenSwitch');
    expect(['windowBlur', 'pageHidden']).toContain(describeDetail(switched!.detail)?.key);
    await expect.poll(() => page.getByTestId('switch-notice').getAttribute('data-left')).toBe(String(cuts - 1));
    await expect.poll(() => page.getByTestId('cuts-left').getAttribute('data-left')).toBe(String(cuts - 1));
    await page.waitForTimeout(1_000);
    expect(risksOf(j.server, attemptId).filter((r) => r.risk === RISK_EVENTS.screenSwitch.id)).toHaveLength(1);

    // 3: fullscreen entered with a click, left by the page: recorded, and a prompt brings the candidate back.
    await page.getByTestId('fullscreen-enter').click();
    await expect.poll(() => page.evaluate(() => document.fullscreenElement !== null)).toBe(true);
    await page.evaluate(() => document.exitFullscreen());
    await page.getByTestId('fullscreen-left').waitFor();
    await expectRisk(j.server, attemptId, 'cancelFullscreen');
    await page.getByTestId('fullscreen-return').click();
    await expect.poll(() => page.evaluate(() => document.fullscreenElement !== null)).toBe(true);
    await page.getByTestId('fullscreen-left').waitFor({ state: 'detached' });

    // 4: a paste of text that was never copied in the page. The demo forbids pasting, so it is also stopped.
    const outside = 'SELECT answer FROM the_internet;';
    expect(await clipboard(page, 'paste', '[data-testid="question"]', outside)).toBe(false);
    await page.getByTestId('toast').first().waitFor();
    const [pasted] = await expectRisk(j.server, attemptId, 'copyPasteOutside');
    expect(pasted!.detail).toContain(outside);
    // Text copied inside the page and pasted back is no outside paste.
    expect(await clipboard(page, 'copy', 'body', 'my own notes')).toBe(true);
    await clipboard(page, 'paste', '[data-testid="question"]', 'my own notes');
    // Copying the question text is stopped (is_copy_question is off in the demo).
    expect(await clipboard(page, 'copy', '.question-text', 'stem')).toBe(false);

    // 19: Google translate marks <html>.
    await page.evaluate(() => document.documentElement.classList.add('translated-ltr'));
    await expectRisk(j.server, attemptId, 'browserTranslate');
    await page.evaluate(() => document.documentElement.classList.remove('translated-ltr'));
    expect(risksOf(j.server, attemptId).filter((r) => r.risk === RISK_EVENTS.copyPasteOutside.id)).toHaveLength(1);

    // 10: the network goes away; the record waits in the outbox and arrives when it is back.
    await goOffline(context, page);
    await page.waitForTimeout(500);
    expect(risksOf(j.server, attemptId).some((r) => r.risk === RISK_EVENTS.offline.id)).toBe(false);
    await context.setOffline(false);
    await expectRisk(j.server, attemptId, 'offline');

    // 20: saves keep failing while the browser believes it is online.
    let aborted = 0;
    await page.route('**/api/answer/answer**', async (route) => {
      aborted++;
      await route.abort('connectionreset');
    });
    await page.getByTestId('question').locator('label', { hasText: /^A\./ }).first().click();
    await expect.poll(() => aborted, { timeout: 20_000 }).toBeGreaterThanOrEqual(3);
    await page.unroute('**/api/answer/answer**');
    const [unstable] = await expectRisk(j.server, attemptId, 'networkUnstable');
    expect(describeDetail(unstable!.detail)?.key).toBe('failedSends');

    // 11, 13, 14: the camera, microphone and screen tracks the exam uses end.
    const ended = await page.evaluate(() => {
      const w = window as unknown as { e2eTracks: { source: string; track: MediaStreamTrack }[] };
      const live = w.e2eTracks.filter((t) => t.track.readyState === 'live');
      for (const { track } of live) track.dispatchEvent(new Event('ended'));
      return live.map((t) => `${t.source}:${t.track.kind}`).sort();
    });
    expect(ended).toEqual(expect.arrayContaining(['display:video', 'user:audio', 'user:video']));
    await expectRisk(j.server, attemptId, 'firstCameraAbnormal', { detail: /"d":"trackEnded","track":"camera"/ });
    await expectRisk(j.server, attemptId, 'microphoneAbnormal', { detail: /"d":"trackEnded","track":"microphone"/ });
    await expectRisk(j.server, attemptId, 'screenSharingAbnormal', { detail: /"d":"trackEnded","track":"screen"/ });

    // 12: the phone page closes; once the server misses its pictures the page hears the status drop.
    expect(phoneContext).not.toBeNull();
    await phoneContext!.close();
    await expectRisk(j.server, attemptId, 'secondCameraAbnormal', { timeout: 150_000 });
    await context.close();
  }, 400_000);

  it('records a phone number change (21) when another account logs in through the cookie', async () => {
    const { context, page } = await newPage(j.browser, j.server.baseUrl);
    await openExam(context, page);
    const other = await candidateToken(j.server, '13700137001');
    await context.addCookies([{ name: 'auth', value: other, url: j.server.baseUrl }]);
    // The account is read again whenever the candidate comes back to the page.
    await page.evaluate(() => window.dispatchEvent(new Event('focus')));
    const [changed] = await expectRisk(j.server, shared.attemptId, 'changePhoneNumber');
    expect(changed!.detail).toMatch(/137\*{4}7001/);
    await page.getByTestId('account-changed').waitFor();
    await context.close();
  }, 120_000);

  it('shows a proctor warning within 2 s, read out as an alert, until the candidate acknowledges it', async () => {
    const { context, page } = await newPage(j.browser, j.server.baseUrl);
    await openExam(context, page);
    // The page follows the live stream once it is open.
    await page.locator('.exam-room[data-live="1"]').waitFor();
    const text = 'Please keep your face in front of the camera.';
    const sent = Date.now();
    const body = { attempt_id: shared.attemptId, text };
    const sentWarning = await staffCall<WarningView>(j.server, 'POST', '/admin/proctor/warn', body);
    expect(sentWarning.read_at).toBeNull();
    const warning = page.getByTestId('proctor-warning');
    await warning.waitFor({ timeout: 2_000 });
    expect(Date.now() - sent).toBeLessThan(2_000);
    expect(await warning.getAttribute('role')).toBe('alert');
    expect(await warning.textContent()).toContain(text);
    const acknowledged = Date.now();
    await page.getByTestId('warning-ack').click();
    await warning.waitFor({ state: 'hidden' });
    // The acknowledgement reaches the server: the proctor sees when the warning was read.
    const readAt = async () => {
      const url = `/admin/proctor/attempt?attempt_id=${shared.attemptId}`;
      const view = await staffCall<ProctorAttemptData>(j.server, 'GET', url);
      return view.warnings.find((w) => w.id === sentWarning.id)?.read_at ?? null;
    };
    await expect.poll(readAt).not.toBeNull();
    expect(await readAt()).toBeGreaterThanOrEqual(acknowledged - 1_000);
    await context.close();
  }, 120_000);

  it('sends a record still waiting when the page goes away by beacon to fast-record-risk', async () => {
    const { context, page } = await newPage(j.browser, j.server.baseUrl, { serviceWorkers: 'block' });
    await openExam(context, page);
    // record-risk fails, so the translation record waits in the outbox...
    let refused = 0;
    await page.route('**/api/monitor/record-risk**', async (route) => {
      refused++;
      await route.abort('connectionreset');
    });
    await page.evaluate(() => document.documentElement.classList.add('translated-rtl'));
    await expect.poll(() => refused).toBeGreaterThan(0);
    expect(risksOf(j.server, shared.attemptId).some((r) => r.detail.includes('translated-rtl'))).toBe(false);
    // ...until the tab closes: the beacon carries it.
    await page.close({ runBeforeUnload: true });
    await expectRisk(j.server, shared.attemptId, 'browserTranslate', { detail: /translated-rtl/ });
    await context.close();
  }, 120_000);

  it('submits the attempt when the screen switches exceed cutting_times, and the page lands on the result', async () => {
    const { context, page } = await newPage(j.browser, j.server.baseUrl);
    await openExam(context, page);
    await realFocus(context, page);
    const switchId = RISK_EVENTS.screenSwitch.id;
    const before = risksOf(j.server, shared.attemptId).filter((r) => r.risk === switchId).length;
    let left = Number(await page.getByTestId('cuts-left').getAttribute('data-left'));
    expect(left).toBe(3 - before);
    // Every allowed switch is counted down...
    while (left > 0) {
      await switchAway(context, page);
      left -= 1;
      await expect.poll(() => page.getByTestId('cuts-left').getAttribute('data-left')).toBe(String(left));
    }
    expect(attemptRow(j.server, shared.attemptId).phase).toBe(2);
    // ...and the one past the allowance submits.
    await switchAway(context, page);
    await page.waitForURL(/\/result$/, { timeout: 15_000 });
    await page.getByTestId('result').waitFor();
    expect(await page.getByTestId('result-ended').getAttribute('data-reason')).toBe('cuts');
    expect(attemptRow(j.server, shared.attemptId)).toEqual({ phase: 3, finish_reason: 'cuts' });
    await expectRisk(j.server, shared.attemptId, 'screenSwitch', { count: 4 });

    // The candidate's integrity log lists the records with their names, and the warning.
    await page.getByTestId('integrity-toggle').click();
    const log = page.getByTestId('integrity-log');
    await log.getByTestId('integrity-record').first().waitFor();
    const shown = await log
      .getByTestId('integrity-record')
      .evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-risk'))));
    for (const key of [
      'screenSwitch',
      'cancelFullscreen',
      'copyPasteOutside',
      'browserTranslate',
      'offline',
      'networkUnstable',
      'changePhoneNumber',
    ] as const) {
      expect(shown, key).toContain(RISK_EVENTS[key].id);
    }
    await log.getByText('切屏').first().waitFor();
    await log.getByTestId('integrity-warnings').getByText('Please keep your face').waitFor();
    await context.close();
  }, 180_000);
});

describe.runIf(browserAvailable())('a proctor ends the attempt', () => {
  const j = useJourney();

  it('takes the candidate to the result page with the proctor reason, through the live stream', async () => {
    const { context, page } = await newPage(j.browser, j.server.baseUrl);
    await loginAs(page, j.server);
    await enterDemoExam(page);
    const { examId, anid } = examIdsOf(page);
    const auth = await authOf(context);
    const started = await api<{ attempt: { id: number } }>(j.server, auth, 'POST', '/monitor/start-exam', {
      exam_id: examId,
      anid,
    });
    await page.locator('.exam-room[data-live="1"]').waitFor();
    const reason = 'Another person was seen next to the candidate.';
    const sent = Date.now();
    await staffCall(j.server, 'POST', '/admin/proctor/end', { attempt_id: started.attempt.id, reason });
    await page.waitForURL(/\/result$/, { timeout: 5_000 });
    expect(Date.now() - sent).toBeLessThan(5_000);
    const ended = page.getByTestId('result-ended');
    await ended.waitFor();
    expect(await ended.textContent()).toContain(reason);
    expect(attemptRow(j.server, started.attempt.id).phase).toBe(3);
    await context.close();
  }, 180_000);
});
