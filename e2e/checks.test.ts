/**
 * The device checks as a candidate meets them: a camera that shows nobody, then two people, is told what to
 * fix and tries again until it shows the candidate alone; the server refuses entering the exam until then; a
 * skip is its own act, shown as 已跳过 and recorded as a skip. The fake camera is fed a video file rewritten
 * between tries (Chromium reads it again each time the camera is opened).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, newPage } from './support/browser.js';
import { authOf, examIdsOf, loginAs, openDemoChecks } from './support/candidate.js';
import { sceneSignature, signatureOf, writeFaceVideo, type CameraScene } from './support/faceVideo.js';
import { useJourney } from './support/journey.js';

describe.runIf(browserAvailable())('device checks', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'examhall-camera-'));
  const video = path.join(dir, 'camera.y4m');
  const show = (scene: CameraScene) => writeFaceVideo({ file: video, scene });
  show('empty');
  const j = useJourney({}, [`--use-file-for-fake-video-capture=${video}`]);
  let db: Database.Database;

  beforeAll(() => {
    db = new Database(path.join(j.server.dataDir, 'examhall.sqlite'));
    // The camera is required here (the demo lets every device be skipped); the phone stays skippable.
    const changed = db.prepare(`UPDATE exams SET settings = json_set(settings, '$.is_skip_camera', 0)`).run().changes;
    expect(changed).toBeGreaterThan(0);
  });
  afterAll(() => {
    db?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('tells a camera without a face, then with two, what to fix, refuses the exam until it passes, and shows a skip as 已跳过', async () => {
    const { context, page } = await newPage(j.browser, j.server.baseUrl);
    try {
      await loginAs(page, j.server);
      await openDemoChecks(page);
      const { examId, anid } = examIdsOf(page);
      const auth = await authOf(context);
      const enter = async () => {
        const res = await fetch(`${j.server.baseUrl}/api/monitor/start-exam?auth=${encodeURIComponent(auth)}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ exam_id: examId, anid, phase: 2 }),
        });
        return { http: res.status, ...((await res.json()) as { code?: string; msg: string }) };
      };
      const result = page.getByTestId('face-result');
      /** The signature of the frame the camera preview shows now (read at 160 x 90). */
      const previewSignature = async () => {
        const frame = await page.getByTestId('stream-preview').evaluate((v: HTMLVideoElement) => {
          const canvas = document.createElement('canvas');
          canvas.width = 160;
          canvas.height = 90;
          const ctx = canvas.getContext('2d')!;
          ctx.imageSmoothingQuality = 'high';
          ctx.drawImage(v, 0, 0, canvas.width, canvas.height);
          return Array.from(ctx.getImageData(0, 0, canvas.width, canvas.height).data);
        });
        return signatureOf({ width: 160, height: 90, data: Uint8Array.from(frame) });
      };
      const distance = (a: number[], b: number[]) => Math.max(...a.map((x, i) => Math.abs(x - b[i]!)));
      /** Opens the camera (again), takes the first picture and answers the face check's verdict. */
      const takePicture = async (scene: CameraScene) => {
        show(scene);
        // The device is unplugged: the step offers to open it again, which reads the new video.
        await page.evaluate(() =>
          document.querySelectorAll('video').forEach((v) =>
            (v.srcObject as MediaStream | null)?.getTracks().forEach((t) => {
              t.stop();
              t.dispatchEvent(new Event('ended'));
            }),
          ),
        );
        await page.getByTestId('device-open').click();
        await page.getByTestId('stream-preview').waitFor();
        // Chromium may show the previous file's frames for a moment: the picture waits for the new scene.
        const expected = sceneSignature({ scene });
        await expect
          .poll(async () => distance(await previewSignature(), expected), { timeout: 15_000, interval: 200 })
          .toBeLessThan(12);
        for (let tryNo = 0; tryNo < 3; tryNo++) {
          // The verdict shown until the new picture's arrives is the last one's: wait for this picture's.
          const before = (await result.count()) > 0 ? await result.getAttribute('data-picture') : null;
          await page.getByTestId('take-picture').click();
          await expect
            .poll(async () => ((await result.count()) > 0 ? await result.getAttribute('data-picture') : null), {
              timeout: 90_000,
              interval: 100,
            })
            .toSatisfy((key) => key !== null && key !== before);
          await result.waitFor();
          if ((await result.getAttribute('data-verdict')) !== 'error') break;
        }
        return result.getAttribute('data-verdict');
      };

      await page.locator('[data-testid="current-step"][data-step="camera"]').waitFor();
      await page.getByTestId('device-open').click();
      await page.getByTestId('stream-preview').waitFor();
      expect(await page.getByTestId('step-skip').count()).toBe(0);

      // Nobody in the picture: told what to fix, no way on.
      expect(await takePicture('empty')).toBe('no_face');
      expect(await result.textContent()).toContain('没有检测到人脸');
      expect(await page.getByTestId('step-pass').isDisabled()).toBe(true);
      const refused = await enter();
      expect([refused.http, refused.code]).toEqual([409, 'checks_incomplete']);
      expect(refused.msg).toMatch(/camera/);

      // Two people: told so.
      expect(await takePicture('twoFaces')).toBe('several_faces');
      expect(await result.textContent()).toContain('不止一个人');
      expect(await page.getByTestId('step-pass').isDisabled()).toBe(true);

      // The candidate alone: the check passes and the step moves on.
      expect(await takePicture('face')).toBe('passed');
      await page.getByTestId('step-pass').click();
      const current = page.getByTestId('current-step');
      await expect.poll(() => current.getAttribute('data-step')).toBe('microphone');
      const steps = page.getByTestId('monitor-step');
      expect(await steps.filter({ hasText: '摄像头' }).textContent()).toContain('已完成');

      await page.getByTestId('device-open').click();
      await page.getByTestId('mic-level').waitFor();
      await page.getByTestId('step-pass').click();
      await expect.poll(() => current.getAttribute('data-step')).toBe('screenSharing');
      await page.getByTestId('device-open').click();
      await page.getByTestId('stream-preview').waitFor();
      await page.getByTestId('step-pass').click();
      await expect.poll(() => current.getAttribute('data-step')).toBe('mobileDevice');
      // Skipping is its own button; the phone step then reads 已跳过, never 已完成.
      await page.getByTestId('step-skip').click();
      await expect.poll(() => current.getAttribute('data-step')).toBe('signature');
      const phoneStep = page.locator('[data-testid="monitor-step"][data-step="mobileDevice"]');
      expect(await phoneStep.getAttribute('data-state')).toBe('skipped');
      expect(await phoneStep.textContent()).toContain('已跳过');
      expect(await phoneStep.textContent()).not.toContain('已完成');
      expect((await enter()).msg).toBe('these checks have not passed: signature');

      await page.getByTestId('pledge-check').check();
      await page.getByTestId('signature-typed').fill('Zhang San');
      await page.getByTestId('signature-submit').click();
      await page.getByTestId('checks-done').waitFor();
      await page.getByTestId('start-exam').click();
      await page.waitForURL(/\/answer$/);

      const attempt = db.prepare(`SELECT id FROM attempts ORDER BY id DESC LIMIT 1`).get() as { id: number };
      const rows = db
        .prepare(
          `SELECT kind, risk, detail FROM risk_records WHERE attempt_id = ? AND kind IN ('check', 'risk') ORDER BY id`,
        )
        .all(attempt.id) as { kind: string; risk: number; detail: string }[];
      const checks = rows.filter((r) => r.kind === 'check').map((r) => JSON.parse(r.detail) as Record<string, unknown>);
      expect(checks.map((c) => [c.step, c.result])).toEqual([
        [-5, 'passed'],
        [-4, 'passed'],
        [-3, 'passed'],
        [-2, 'skipped'],
        [-1, 'passed'],
      ]);
      expect(checks[0]).toMatchObject({ faces: 1 });
      expect(rows.filter((r) => r.kind === 'risk').map((r) => r.risk)).toContain(18);
      expect(rows.filter((r) => r.kind === 'risk').map((r) => r.risk)).not.toContain(15);
    } finally {
      await context.close();
    }
  }, 300_000);
});
