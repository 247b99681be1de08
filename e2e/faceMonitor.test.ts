/**
 * Face monitoring during the exam: the candidate's camera shows their face through the checks and into the exam,
 * then nobody. The exam page's monitor (the face models in the browser, loaded after the page is up) raises "no
 * face" naming the frame, and the server checks that frame with its own engine and records that it agrees.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describeDetail } from '@examhall/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, newPage } from './support/browser.js';
import { examIdsOf, loginAs, openDemoChecks } from './support/candidate.js';
import { staffLogin } from './support/console.js';
import { writeFaceVideo } from './support/faceVideo.js';
import { useJourney } from './support/journey.js';
import { ADMIN } from './support/server.js';
import { passMonitorChecks } from './support/monitor.js';

/** Frames a second of the camera's video. */
const FPS = 2;
/** Seconds the face shows from the moment the camera opens (the checks and the exam's first frames), then nobody. */
const FACE_S = 75;
const EMPTY_S = 45;

interface RecordRow {
  id: number;
  kind: string;
  risk: number;
  detail: string;
  image_key: string | null;
}

describe.runIf(browserAvailable())('face monitoring during the exam', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'examhall-face-monitor-'));
  const video = writeFaceVideo({
    file: path.join(dir, 'camera.y4m'),
    width: 640,
    height: 360,
    fps: FPS,
    sequence: [
      { scene: 'face', frames: FACE_S * FPS },
      { scene: 'empty', frames: EMPTY_S * FPS },
    ],
  });
  // No sampled frame: what the server checks here is what the browser flagged.
  const j = useJourney({ FACE_SAMPLE_EVERY: '0' }, [`--use-file-for-fake-video-capture=${video}`]);
  let db: Database.Database;

  beforeAll(() => {
    db = new Database(path.join(j.server.dataDir, 'examhall.sqlite'));
    // The camera is required and frames come every 5 s (the shortest interval an exam may set).
    const changed = db
      .prepare(`UPDATE exams SET settings = json_set(settings, '$.is_skip_camera', 0, '$.capture_interval', 5)`)
      .run().changes;
    expect(changed).toBeGreaterThan(0);
  });
  afterAll(() => {
    db?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('raises "no face" in the browser when the candidate leaves the camera, and the server agrees', async () => {
    const { page } = await newPage(j.browser, j.server.baseUrl);
    const models: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/face-models/')) models.push(new URL(r.url()).pathname);
    });
    const said: string[] = [];
    page.on('console', (m) => {
      if (m.text().includes('[proctor]')) said.push(m.text());
    });
    await loginAs(page, j.server);
    await openDemoChecks(page);
    const { examId } = examIdsOf(page);
    const checks = await passMonitorChecks(page);
    expect(checks.faces, checks.faceText ?? '').toBe('1');
    await page.waitForURL(/\/answer$/);
    await page.getByTestId('question').waitFor();

    const records = () =>
      db.prepare(`SELECT id, kind, risk, detail, image_key FROM risk_records ORDER BY id`).all() as RecordRow[];
    // The browser's flag: camera abnormal (11), "no face", naming one of the exam's camera frames.
    let flag: RecordRow | undefined;
    await expect
      .poll(
        () => {
          flag = records().find(
            (r) => r.kind === 'risk' && r.risk === 11 && describeDetail(r.detail)?.key === 'noFace',
          );
          return flag;
        },
        { timeout: (FACE_S + EMPTY_S) * 1000 + 60_000, interval: 1_000, message: `page said: ${said.join('; ')}` },
      )
      .toBeDefined();
    const frames = records().filter((r) => r.kind === 'frame');
    expect(frames.map((f) => f.image_key)).toContain(flag!.image_key);
    // Raised once for the episode, however many empty frames followed.
    const faceFlags = () => records().filter((r) => r.risk === 11 && describeDetail(r.detail)?.key === 'noFace').length;
    // What the monitor costs the candidate's browser: loading the library and models once, then each frame.
    const spent = await page.evaluate(() => ({
      load: performance.getEntriesByName('examhall:face-load').map((e) => Math.round(e.duration)),
      read: performance.getEntriesByName('examhall:face-read').map((e) => Math.round(e.duration)),
    }));
    console.log(`face monitor in the browser: load ${spent.load.join(', ')} ms; reads ${spent.read.join(', ')} ms`);
    expect(spent.load).toHaveLength(1);
    expect(spent.read.length).toBeGreaterThanOrEqual(1);
    // The models and the backend came from this server, after the page was up.
    expect(models).toEqual(expect.arrayContaining(['/face-models/blazeface.json', '/face-models/centernet.bin']));

    // The server's own check of that frame, recorded in the chain beside the flag.
    let verdict: RecordRow | undefined;
    await expect
      .poll(
        () => {
          verdict = records().find((r) => {
            const d = describeDetail(r.detail);
            return r.kind === 'face' && d?.key === 'faceVerified' && d.params.record === flag!.id;
          });
          return verdict;
        },
        { timeout: 60_000, interval: 500 },
      )
      .toBeDefined();
    expect(describeDetail(verdict!.detail)).toEqual({
      key: 'faceVerified',
      params: { record: flag!.id, agrees: true, faces: 0, phone: expect.any(Number), finding: 'noFace' },
    });
    expect(verdict!.image_key).toBe(flag!.image_key);
    const check = db
      .prepare(`SELECT source, status, agrees, server_finding FROM face_checks WHERE record_id = ?`)
      .get(flag!.id);
    expect(check).toEqual({ source: 'flagged', status: 'done', agrees: 1, server_finding: 'noFace' });
    expect(faceFlags()).toBe(1);

    // The proctor sees the flag and, beside it, the server's verdict in words.
    const staff = await newPage(j.browser, j.server.baseUrl);
    await staffLogin(staff.page, ADMIN, `/admin/proctoring/${examId}`);
    await staff.page.getByTestId(`proctor-risk-${flag!.id}`).getByText('画面中没有人脸').waitFor();
    await staff.page.getByTestId(`proctor-risk-${flag!.id}`).getByRole('link').click();
    const timeline = staff.page.getByTestId('proctor-attempt').getByTestId('proctor-timeline');
    await timeline
      .getByTestId(`timeline-record-${verdict!.id}`)
      .getByText(`服务器人脸复核与记录 #${flag!.id} 一致：无人脸（0 张人脸）`)
      .waitFor();
    await staff.context.close();
  }, 400_000);
});
