import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Page } from 'playwright-core';
import { detail } from '@examhall/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, newPage } from './support/browser.js';
import { api, authOf, enterDemoExam, examIdsOf, loginAs } from './support/candidate.js';
import { staffLogin } from './support/console.js';
import { writeFaceVideo } from './support/faceVideo.js';
import { useJourney } from './support/journey.js';
import { ADMIN, type TestServer } from './support/server.js';

/** Where the journeys' screenshots go (ignored by git). */
const SHOTS = path.resolve('test-results/screenshots');
/** The sizes the result page and the drawer are looked at, and must not scroll sideways at. */
const SIZES = [
  { width: 1440, height: 900 },
  { width: 1280, height: 720 },
] as const;

/** Saves the page at each size and fails when it scrolls sideways at any of them. */
async function shootAtSizes(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await page.screenshot({ path: path.join(SHOTS, `${name}-${size.width}x${size.height}.png`) });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${name} at ${size.width}x${size.height} scrolls sideways`).toBeLessThanOrEqual(0);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** Records a risk as the candidate's page does (a form on /monitor/record-risk); answers its id. */
async function recordRisk(server: TestServer, auth: string, examId: number, risk: number, text: string) {
  const res = await fetch(`${server.baseUrl}/api/monitor/record-risk?auth=${auth}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      exam_id: String(examId),
      risk: String(risk),
      trigger_time: String(Date.now()),
      detail: text,
      client_id: randomUUID(),
    }).toString(),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { id: number } }).data.id;
}

/** Posts a JSON body as the candidate and fails on an error envelope. */
async function postJson(server: TestServer, auth: string, url: string, payload: object) {
  const res = await fetch(`${server.baseUrl}/api${url}?auth=${auth}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(payload),
  });
  expect(res.status, await res.clone().text()).toBe(200);
}

/** The demo's keys for its scored types: enough right answers that positions differ in how well they match. */
const RIGHT: Record<number, unknown> = {
  1: { kind: 'choice', option: 'B' },
  2: { kind: 'multi', options: ['A', 'C'] },
  3: { kind: 'multi', options: ['A', 'B', 'D'] },
  7: { kind: 'choice', option: 'A' },
  11: { kind: 'choice', option: 'A' },
  4: { kind: 'blanks', blanks: ['404', '500'] },
};

describe.runIf(browserAvailable())('a grid of 500 candidates', () => {
  const j = useJourney();
  const SEEDED = 500;

  /**
   * Seeds the demo exam with 500 attempts in the server's own database: every fifth with a risk (the 251st
   * with three), every other one never connected (offline), every seventh with a phone that went quiet.
   */
  function seedAttempts(): {
    examId: number;
    examName: string;
    expected: { all: number; risk: number; offline: number; phone_lost: number };
  } {
    const db = new Database(path.join(j.server.dataDir, 'examhall.sqlite'));
    try {
      const exam = db.prepare('SELECT id, name, mode FROM exams ORDER BY id LIMIT 1').get() as {
        id: number;
        name: string;
        mode: number;
      };
      const now = Date.now();
      const expected = { all: SEEDED, risk: 0, offline: 0, phone_lost: 0 };
      db.transaction(() => {
        const candidate = db.prepare(
          'INSERT INTO candidates (area_code, phone, name, created_at) VALUES (?, ?, ?, ?) RETURNING id',
        );
        const invitation = db.prepare(
          'INSERT INTO invitations (exam_id, area_code, phone, extra_minutes, created_at) VALUES (?, ?, ?, 0, ?) RETURNING id',
        );
        const attempt = db.prepare(
          `INSERT INTO attempts (exam_id, candidate_id, invitation_id, mode, phase, created_at, started_at, end_at,
             last_seen_at, phone_seen_at) VALUES (?, ?, ?, ?, 2, ?, ?, ?, ?, ?) RETURNING id`,
        );
        const risk = db.prepare(
          `INSERT INTO risk_records (attempt_id, risk, category, trigger_time, detail, image_key, client_id, prev_hash,
             hash, created_at, kind) VALUES (?, 1, 1, ?, ?, NULL, ?, ?, ?, ?, 'risk')`,
        );
        for (let i = 0; i < SEEDED; i++) {
          const phone = `150${String(i).padStart(8, '0')}`;
          const c = candidate.get('86', phone, `考生 ${String(i).padStart(3, '0')}`, now) as { id: number };
          const inv = invitation.get(exam.id, '86', phone, now) as { id: number };
          const offline = i % 2 === 1;
          const phoneLost = i % 7 === 0;
          // Seen in the future: online for the whole journey, however long it takes.
          const a = attempt.get(
            exam.id,
            c.id,
            inv.id,
            exam.mode,
            now,
            now,
            now + 3_600_000,
            offline ? null : now + 600_000,
            phoneLost ? now - 60_000 : null,
          ) as { id: number };
          const risks = i === 250 ? 3 : i % 5 === 0 ? 1 : 0;
          for (let r = 0; r < risks; r++) {
            // Each links to the one before, as the chain does (its hashes are not what this journey checks).
            risk.run(a.id, now, detail.pageHidden(), randomUUID(), String(r).repeat(64), String(r + 1).repeat(64), now);
          }
          if (risks > 0) expected.risk++;
          if (offline) expected.offline++;
          if (phoneLost) expected.phone_lost++;
        }
      })();
      return { examId: exam.id, examName: exam.name, expected };
    } finally {
      db.close();
    }
  }

  it('opens quickly, filters by risk, offline and phone lost, sorts by risk, and pages', async () => {
    const { examId, examName, expected } = seedAttempts();
    const { context, page, consoleErrors } = await newPage(j.browser, j.server.baseUrl);
    await staffLogin(page, ADMIN, '/admin/proctoring');
    const grid = page.getByTestId('proctor-grid');
    const started = Date.now();
    await page.getByTestId(`proctor-exam-${examId}`).click();
    await page.locator('[data-testid="proctor-grid"][data-count="60"]').waitFor();
    const opened = Date.now() - started;
    console.log(`grid of ${SEEDED}: first page of 60 tiles shown in ${opened} ms`);
    expect(opened).toBeLessThan(5_000);
    // The exam's name, not its number, in the heading and the window's title.
    const title = await page.getByTestId('proctor-grid-title').textContent();
    expect(title).toBe(`${examName} · 实时监考`);
    await expect.poll(() => page.title()).toContain(examName);
    await page.getByTestId('grid-total').getByText(`共 ${SEEDED} 人`).waitFor();
    for (const [filter, n] of Object.entries(expected)) {
      expect(await page.getByTestId(`grid-filter-${filter}`).textContent()).toMatch(new RegExp(` ${n}$`));
    }

    /** Applies a filter and waits for its total; answers how long the new page took to show. */
    const filterBy = async (filter: string, n: number) => {
      const t0 = Date.now();
      await page.getByTestId(`grid-filter-${filter}`).click();
      await page.getByTestId('grid-total').getByText(`共 ${n} 人`).waitFor();
      await page.locator(`[data-testid="proctor-grid"][data-count="${Math.min(60, n)}"]`).waitFor();
      return Date.now() - t0;
    };
    const took: Record<string, number> = {};
    took.offline = await filterBy('offline', expected.offline);
    const tiles = grid.locator('.proctor-tile');
    for (const text of await tiles.allTextContents()) expect(text).toContain('离线');
    took.phone_lost = await filterBy('phone_lost', expected.phone_lost);
    for (const text of await tiles.allTextContents()) expect(text).toContain('手机未连接');
    took.risk = await filterBy('risk', expected.risk);
    for (const count of await grid.getByTestId('tile-risk-count').allTextContents()) expect(count).not.toBe('风险 0');
    console.log(`filters shown in ${JSON.stringify(took)} ms`);
    for (const ms of Object.values(took)) expect(ms).toBeLessThan(3_000);

    // The riskiest first.
    await page.getByTestId('grid-sort').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '风险最多在前' }).click();
    await expect.poll(() => grid.getByTestId('tile-risk-count').first().textContent()).toBe('风险 3');
    await expect.poll(() => tiles.first().textContent()).toContain('考生 250');

    // Every candidate again, the last page.
    await filterBy('all', SEEDED);
    await page.getByTestId('proctor-grid-pages').getByTitle('9').click();
    await page.locator(`[data-testid="proctor-grid"][data-count="${SEEDED - 8 * 60}"]`).waitFor();

    expect(consoleErrors.filter((e) => !/status of 4\d\d/.test(e))).toEqual([]);
    await context.close();
  }, 120_000);
});

describe.runIf(browserAvailable())('the timeline and the result page in words', () => {
  // One person facing the camera, so the checks pass with a face; audio plays without a click.
  const videoDir = mkdtempSync(path.join(tmpdir(), 'examhall-face-'));
  const faceVideo = writeFaceVideo({ file: path.join(videoDir, 'face.y4m') });
  const j = useJourney({}, [
    `--use-file-for-fake-video-capture=${faceVideo}`,
    '--autoplay-policy=no-user-gesture-required',
  ]);

  beforeAll(() => {
    // Captures every 5 s (the shortest an exam may set), so a recording is made within the journey.
    const db = new Database(path.join(j.server.dataDir, 'examhall.sqlite'));
    db.prepare(`UPDATE exams SET settings = json_set(settings, '$.capture_interval', 5)`).run();
    db.close();
  });
  afterAll(() => rmSync(videoDir, { recursive: true, force: true }));

  it('shows the proctor a timeline in words with a recording that plays and a picture that opens large, and the candidate a result page in Chinese and English', async () => {
    const candidate = await newPage(j.browser, j.server.baseUrl);
    const { page } = candidate;
    await loginAs(page, j.server);
    await enterDemoExam(page);
    const { examId } = examIdsOf(page);
    const auth = await authOf(candidate.context);

    // Right answers to the scored objective questions, and an answer to every evaluation item.
    const order = await api<{ subject_order: { id: number; type: number }[] }>(
      j.server,
      auth,
      'GET',
      '/subject/order-list',
      {
        exam_id: examId,
      },
    );
    for (const q of order.subject_order.filter((e) => RIGHT[e.type])) {
      await postJson(j.server, auth, '/answer/answer', {
        exam_id: examId,
        subject_id: q.id,
        answer: RIGHT[q.type],
        client_id: randomUUID(),
        seq: 100,
        changed_at: Date.now(),
      });
    }
    const items = await api<{ data: { id: number }[] }>(j.server, auth, 'GET', '/ceping/exam-line-order', {
      exam_id: examId,
    });
    for (const item of items.data) {
      await postJson(j.server, auth, '/ceping/answer', {
        exam_id: examId,
        subject_id: item.id,
        option: 'A',
        client_id: randomUUID(),
        seq: 100,
        changed_at: Date.now(),
      });
    }
    // Risks with details in the vocabulary, and one written before it (shown as written).
    const twoFaces = await recordRisk(j.server, auth, examId, 11, detail.faces(2));
    await recordRisk(j.server, auth, examId, 1, detail.pageClosed(12));
    await recordRisk(j.server, auth, examId, 10, detail.browserOffline());
    await recordRisk(j.server, auth, examId, 11, 'no face');
    // The fake microphone beeps: a recording is uploaded within a few capture intervals.
    await expect
      .poll(
        async () =>
          (await api<{ bytes: unknown[] }>(j.server, auth, 'GET', '/monitor/state', { exam_id: examId })).bytes.length,
        {
          timeout: 60_000,
          interval: 2_000,
        },
      )
      .toBeGreaterThanOrEqual(1);

    // The proctor opens the candidate from the feed of waiting flags.
    const staff = await newPage(j.browser, j.server.baseUrl);
    const console_ = staff.page;
    await staffLogin(console_, ADMIN, `/admin/proctoring/${examId}`);
    await console_.getByTestId(`proctor-risk-${twoFaces}`).getByText('画面中有 2 张人脸').waitFor();
    await console_.getByTestId(`proctor-risk-${twoFaces}`).getByRole('link').click();
    const drawer = console_.getByTestId('proctor-attempt');
    const timeline = drawer.getByTestId('proctor-timeline');
    await timeline.getByTestId(`timeline-record-${twoFaces}`).getByText('画面中有 2 张人脸').waitFor();
    const details = async () => timeline.getByTestId('timeline-detail').allTextContents();
    await expect
      .poll(details)
      .toEqual(expect.arrayContaining(['摄像头检测：通过', '手机第二视角检测：已跳过', '跳过了手机第二视角检测']));
    const shown = await details();
    expect(shown).toContain('考试页面关闭了 12 秒');
    expect(shown).toContain('no face');
    // No raw vocabulary is left for the proctor to decode.
    for (const text of shown) expect(text).not.toMatch(/^\{/);
    await shootAtSizes(console_, 'proctor-drawer');

    // The recording plays in an audio player.
    const audio = timeline.locator('[data-testid^="timeline-audio-"]').first();
    await audio.scrollIntoViewIfNeeded();
    const played = await audio.evaluate(async (el) => {
      const a = el as HTMLAudioElement;
      await a.play();
      const t0 = Date.now();
      while (a.currentTime === 0 && Date.now() - t0 < 10_000) await new Promise((r) => setTimeout(r, 100));
      a.pause();
      return { time: a.currentTime, error: a.error?.code ?? null };
    });
    expect(played.error).toBeNull();
    expect(played.time).toBeGreaterThan(0);

    // A picture opens large.
    const picture = timeline.locator('[data-testid^="timeline-picture-"] img').first();
    await picture.click();
    const large = console_.locator('.ant-image-preview img').first();
    await large.waitFor();
    // The preview zooms in: its size is read once the animation has settled.
    await expect.poll(async () => (await large.boundingBox())?.width ?? 0).toBeGreaterThan(320);
    await console_.keyboard.press('Escape');
    await large.waitFor({ state: 'detached' });

    // Flags only, then one kind.
    await drawer.getByTestId('timeline-flags-only').click();
    await expect.poll(() => timeline.locator('[data-kind="check"]').count()).toBe(0);
    expect(await timeline.locator('[data-kind="risk"]').count()).toBeGreaterThanOrEqual(5);
    await drawer.getByTestId('timeline-flags-only').click();
    await drawer.getByTestId('timeline-kind').click();
    await console_.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '录音' }).click();
    await expect
      .poll(() => timeline.locator('[data-testid^="timeline-record-"]:not([data-kind="byte"])').count())
      .toBe(0);
    expect(await timeline.locator('[data-kind="byte"]').count()).toBeGreaterThanOrEqual(1);
    // In English, the same records read in English.
    await drawer.getByTestId('timeline-kind').click();
    await console_.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '全部类型' }).click();
    // The switch is in the console's header, behind the drawer: close it, switch, open the attempt again.
    await console_.locator('.ant-drawer-close').click();
    await drawer.waitFor({ state: 'detached' });
    await console_.getByTestId('lang-switch').click();
    await console_.getByTestId(`proctor-risk-${twoFaces}`).getByRole('link').click();
    await expect.poll(details).toEqual(expect.arrayContaining(['2 faces in the picture', 'Camera check: passed']));
    await staff.context.close();

    // The candidate submits and reads the result page.
    await page.getByTestId('exam-submit').click();
    await page.getByTestId('submit-confirm').click();
    await page.waitForURL(/\/result$/);
    const dims = page.getByTestId('result-dimensions');
    await dims.waitFor();
    expect(await dims.textContent()).toContain('团队协作');
    expect(await dims.textContent()).toContain('抗压能力');
    expect(await dims.textContent()).not.toContain('teamwork');
    // Positions, the best match first.
    await page.getByTestId('position').first().waitFor();
    const matches = (
      await page.getByTestId('position').evaluateAll((els) => els.map((e) => e.getAttribute('data-match')))
    ).map(Number);
    expect(matches).toEqual([...matches].sort((a, b) => b - a));
    expect(new Set(matches).size, `matches ${matches.join(', ')}`).toBeGreaterThan(1);
    // The integrity log in words.
    await page.getByTestId('integrity-toggle').click();
    const log = page.getByTestId('integrity-log');
    await log.getByTestId('integrity-record').first().waitFor();
    const logDetails = () => log.getByTestId('integrity-detail').allTextContents();
    expect(await logDetails()).toEqual(
      expect.arrayContaining(['画面中有 2 张人脸', '考试页面关闭了 12 秒', '浏览器断网', 'no face']),
    );
    await shootAtSizes(page, 'result');
    // And in English.
    await page.getByTestId('lang-switch').click();
    await expect.poll(() => dims.textContent()).toContain('Teamwork');
    expect(await dims.textContent()).toContain('Resilience');
    await expect
      .poll(logDetails)
      .toEqual(
        expect.arrayContaining([
          '2 faces in the picture',
          'The exam page was closed for 12 s',
          'The browser went offline',
          'no face',
        ]),
      );
    expect(candidate.consoleErrors.filter((e) => !/status of 4\d\d/.test(e))).toEqual([]);
    await candidate.context.close();
  }, 300_000);
});
