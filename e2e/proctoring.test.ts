import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { chromium, devices, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, CHROMIUM_PATH, newPage } from './support/browser.js';
import { api, authOf, examIdsOf, loginAs, openDemoChecks } from './support/candidate.js';
import { useJourney } from './support/journey.js';
import { writeFaceVideo } from './support/faceVideo.js';
import { passMonitorChecks } from './support/monitor.js';

/** Seconds between captures for this journey: the shortest an exam may set (the demo's 30 s would make it slow). */
const CAPTURE_INTERVAL_S = 5;

interface MonitorState {
  firstPicture: string | null;
  signature: string | null;
  mobileDeviceStatus: 0 | 1;
  frames: { id: number; key: string; trigger_time: number; isSuccess: boolean }[];
  checks: { step: number; result: string }[];
  capture_interval: number;
  offlineImages: number;
  bytes: { id: number; time: number }[];
}

interface EvidenceRow {
  id: number;
  kind: string;
  image_key: string | null;
  sha256: string | null;
  size: number | null;
}

describe.runIf(browserAvailable())('proctoring journey', () => {
  // One person facing the camera (engineer B's fixture), fed to Chromium as its fake camera; FACE_VIDEO: another file.
  const videoDir = mkdtempSync(path.join(tmpdir(), 'examhall-face-'));
  const faceVideo = process.env.FACE_VIDEO ?? writeFaceVideo({ file: path.join(videoDir, 'face.y4m') });
  const j = useJourney({}, [`--use-file-for-fake-video-capture=${faceVideo}`]);
  let db: Database.Database;

  beforeAll(() => {
    db = new Database(path.join(j.server.dataDir, 'examhall.sqlite'));
    // Before any candidate reads the exam, so no server cache holds the old interval.
    const changed = db
      .prepare(`UPDATE exams SET settings = json_set(settings, '$.capture_interval', ?)`)
      .run(CAPTURE_INTERVAL_S).changes;
    expect(changed).toBeGreaterThan(0);
  });

  afterAll(() => {
    db?.close();
    rmSync(videoDir, { recursive: true, force: true });
  });

  function evidence(kind: string): EvidenceRow[] {
    return db
      .prepare(`SELECT id, kind, image_key, sha256, size FROM risk_records WHERE kind = ? ORDER BY id`)
      .all(kind) as EvidenceRow[];
  }

  /** The object's bytes in the local store, checked against the digest its record holds. */
  function storedFile(row: EvidenceRow): Buffer {
    expect(row.image_key, `record ${row.id} (${row.kind}) names its object`).toBeTruthy();
    const file = path.join(j.server.dataDir, 'objects', row.image_key!);
    expect(existsSync(file), `${row.kind} object ${row.image_key} is in storage`).toBe(true);
    const bytes = readFileSync(file);
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(row.sha256);
    return bytes;
  }

  it('passes every check with a phone as second camera, takes the exam, and the server holds the evidence', async () => {
    const { context, page, consoleErrors } = await newPage(j.browser, j.server.baseUrl);
    let phoneContext: BrowserContext | null = null;
    let phonePage: Page | null = null;
    try {
      await loginAs(page, j.server);
      await openDemoChecks(page);
      const { examId } = examIdsOf(page);
      const auth = await authOf(context);

      const outcome = await passMonitorChecks(page, async (link) => {
        // The phone: its own mobile-emulated context, no candidate cookie, the token from the link only.
        phoneContext = await j.browser.newContext({ ...devices['Pixel 7'], locale: 'zh-CN' });
        phonePage = await phoneContext.newPage();
        phonePage.setDefaultTimeout(15_000);
        await phonePage.goto(link);
        await phonePage.getByTestId('phone-page').waitFor();
        // The token leaves the address once read.
        await expect.poll(() => new URL(phonePage!.url()).searchParams.has('auth')).toBe(false);
        await expect
          .poll(async () => Number(await phonePage!.getByTestId('phone-status').getAttribute('data-sent')), {
            timeout: 20_000,
          })
          .toBeGreaterThan(0);
      });
      expect(outcome.faces, `the face check of the first picture: ${outcome.faceText}`).toBe('1');
      await page.waitForURL(/\/answer$/);
      await page.getByTestId('question').waitFor();

      // The exam runs for a few capture intervals with the camera, screen and phone all sending.
      await expect
        .poll(
          async () => {
            const state = await api<MonitorState>(j.server, auth, 'GET', '/monitor/state', { exam_id: examId });
            return state.frames.filter((f) => f.isSuccess).length;
          },
          { timeout: 30_000, interval: 1_000 },
        )
        .toBeGreaterThanOrEqual(3);
      await expect.poll(() => evidence('screen').length, { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
      await expect.poll(() => evidence('phone').length, { timeout: 20_000 }).toBeGreaterThanOrEqual(2);

      // Offline for more than a capture interval: the pictures taken meanwhile are kept in the browser
      // and uploaded on reconnect as offlineImages.
      const stateNow = () => api<MonitorState>(j.server, auth, 'GET', '/monitor/state', { exam_id: examId });
      await context.setOffline(true);
      await page.waitForTimeout((CAPTURE_INTERVAL_S + 2) * 1000);
      await context.setOffline(false);
      await expect.poll(async () => (await stateNow()).offlineImages, { timeout: 30_000 }).toBeGreaterThanOrEqual(1);

      // Storage refusing uploads: the exam page says 'upload failed' until a frame gets through again.
      await page.route('**/storage/**', (route) => route.fulfill({ status: 500, body: 'down' }));
      await page.getByTestId('capture-upload-failed').waitFor({ timeout: (CAPTURE_INTERVAL_S + 10) * 1000 });
      expect(await page.getByTestId('capture-upload-failed').textContent()).toContain('监控画面上传失败');
      await page.unroute('**/storage/**');
      await page
        .getByTestId('capture-upload-failed')
        .waitFor({ state: 'detached', timeout: (CAPTURE_INTERVAL_S + 10) * 1000 });

      // The fake microphone beeps, which counts as sound: a short recording is uploaded as a byte (one taken
      // while offline or while storage refused it is lost, and the next is recorded 10 s later).
      await expect.poll(async () => (await stateNow()).bytes.length, { timeout: 45_000 }).toBeGreaterThanOrEqual(1);
      const [byte] = evidence('byte');
      expect(storedFile(byte!).subarray(0, 4).toString('hex')).toBe('1a45dfa3'); // WebM (EBML)

      const state = await api<MonitorState>(j.server, auth, 'GET', '/monitor/state', { exam_id: examId });
      expect(state.capture_interval).toBe(CAPTURE_INTERVAL_S);
      expect(state.mobileDeviceStatus).toBe(1);
      expect(state.checks.map((c) => [c.step, c.result]).sort()).toEqual(
        [
          [-5, 'passed'],
          [-4, 'passed'],
          [-3, 'passed'],
          [-2, 'passed'],
          [-1, 'passed'],
        ].sort(),
      );
      expect(state.firstPicture).toBeTruthy();
      expect(state.signature).toBeTruthy();

      // Every kind of evidence is in storage with its record, and its bytes are what the record says.
      const [first] = evidence('first_picture');
      expect(first?.image_key).toBe(state.firstPicture);
      const firstBytes = storedFile(first!);
      expect(firstBytes.subarray(0, 3).toString('hex')).toBe('ffd8ff'); // JPEG
      const [signature] = evidence('signature');
      expect(signature?.image_key).toBe(state.signature);
      expect(storedFile(signature!).subarray(1, 4).toString()).toBe('PNG');
      for (const kind of ['frame', 'screen', 'phone']) {
        const rows = evidence(kind);
        expect(rows.length, `${kind} records`).toBeGreaterThanOrEqual(2);
        for (const row of rows) expect(storedFile(row).subarray(0, 3).toString('hex')).toBe('ffd8ff');
      }
      const frameKeys = new Set(evidence('frame').map((r) => r.image_key));
      for (const f of state.frames) expect(frameKeys.has(f.key)).toBe(true);

      // The first picture, sent again to the face check, is one face.
      const form = new FormData();
      form.append('exam_id', String(examId));
      form.append('face_img', new Blob([new Uint8Array(firstBytes)], { type: 'image/jpeg' }), 'first.jpg');
      const res = await fetch(`${j.server.baseUrl}/api/tools/face_recognize?auth=${encodeURIComponent(auth)}`, {
        method: 'POST',
        body: form,
      });
      const face = (await res.json()) as { status: string; data: { face_count: number } };
      expect(face.status).toBe('success');
      expect(face.data.face_count).toBe(1);

      // The phone page stops when the attempt is submitted.
      await api(j.server, auth, 'POST', '/monitor/finish-exam', { exam_id: examId });
      await phonePage!.getByTestId('phone-over').waitFor({ timeout: 20_000 });

      // Expected: the browser's reports of requests it could not make offline or that storage refused, and
      // the page's own log line for the refused frame upload.
      const expected = /favicon|ERR_INTERNET_DISCONNECTED|status of 500|\[proctor\] upload failed/;
      expect(consoleErrors.filter((e) => !expected.test(e))).toEqual([]);
    } finally {
      await (phoneContext as BrowserContext | null)?.close();
      await context.close();
    }
  }, 240_000);
});

describe.runIf(browserAvailable())('skipping checks', () => {
  const j = useJourney();
  let browser: Browser;

  beforeAll(async () => {
    // Fake devices but no auto-accepted permission prompt: headless Chromium denies them, as a candidate may.
    browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--use-fake-device-for-media-stream'],
    });
  });
  afterAll(async () => browser?.close());

  it('guides a candidate whose camera is denied, records a skip of camera, microphone, screen and phone as risks 15 to 18; the pledge cannot be skipped and is signed from the keyboard', async () => {
    const { context, page } = await newPage(browser, j.server.baseUrl);
    try {
      await loginAs(page, j.server);
      await openDemoChecks(page);
      const { examId } = examIdsOf(page);
      const auth = await authOf(context);

      // Permission denied: the reason and what to do, and a retry that works once it is allowed.
      await page.locator('[data-testid="current-step"][data-step="camera"]').waitFor();
      await page.getByTestId('device-open').click();
      const problem = page.getByTestId('device-problem');
      await expect.poll(() => problem.getAttribute('data-problem')).toBe('denied');
      expect(await problem.textContent()).toMatch(/权限/);
      await context.grantPermissions(['camera'], { origin: j.server.baseUrl });
      await page.getByTestId('device-retry').click();
      await page.getByTestId('stream-preview').waitFor();
      expect(await problem.count()).toBe(0);

      const current = page.getByTestId('current-step');
      for (const step of ['camera', 'microphone', 'screenSharing', 'mobileDevice']) {
        await page.locator(`[data-testid="current-step"][data-step="${step}"]`).waitFor();
        await page.getByTestId('step-skip').click();
      }
      await page.locator('[data-testid="current-step"][data-step="signature"]').waitFor();
      await expect(page.getByTestId('step-skip').count()).resolves.toBe(0);

      // Keyboard only: tick the pledge, type the name as the signature, submit.
      await page.getByTestId('pledge-check').focus();
      await page.keyboard.press('Space');
      await page.getByTestId('signature-typed').focus();
      await page.keyboard.type('Zhang San');
      await page.getByTestId('signature-submit').focus();
      await page.keyboard.press('Enter');
      await page.getByTestId('checks-done').waitFor();
      await expect(current.count()).resolves.toBe(0);

      const state = await api<MonitorState>(j.server, auth, 'GET', '/monitor/state', { exam_id: examId });
      expect(Object.fromEntries(state.checks.map((c) => [c.step, c.result]))).toEqual({
        '-5': 'skipped',
        '-4': 'skipped',
        '-3': 'skipped',
        '-2': 'skipped',
        '-1': 'passed',
      });
      expect(state.signature).toBeTruthy();

      const db = new Database(path.join(j.server.dataDir, 'examhall.sqlite'), { readonly: true });
      try {
        const risks = db
          .prepare(
            `SELECT risk, category FROM risk_records WHERE kind = 'risk' AND risk BETWEEN 15 AND 18 ORDER BY risk`,
          )
          .all();
        expect(risks).toEqual([
          { risk: 15, category: 3 },
          { risk: 16, category: 3 },
          { risk: 17, category: 3 },
          { risk: 18, category: 3 },
        ]);
      } finally {
        db.close();
      }

      await page.getByTestId('start-exam').press('Enter');
      await page.waitForURL(/\/answer$/);

      // A phone page opened with a wrong or expired link says so instead of showing a login.
      const phone = await browser.newContext({ ...devices['Pixel 7'], locale: 'zh-CN', baseURL: j.server.baseUrl });
      try {
        const phonePage = await phone.newPage();
        await phonePage.goto('/phone?auth=not-a-phone-token');
        await phonePage.getByTestId('phone-error').waitFor();
        expect(await phonePage.getByTestId('phone-error').textContent()).toContain('链接已失效');
        expect(new URL(phonePage.url()).pathname).toBe('/phone');
      } finally {
        await phone.close();
      }
    } finally {
      await context.close();
    }
  }, 180_000);
});
