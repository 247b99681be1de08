import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FacePool } from '../packages/server/src/proctoring/face/pool.js';
import { browserAvailable, launchBrowser } from './support/browser.js';
import { faceVideoArgs } from './support/faceVideo.js';

describe.runIf(browserAvailable())('the face video fixture', () => {
  let browser: Browser;
  let server: Server;
  let base: string;
  const pool = new FacePool({ size: 1 });

  beforeAll(async () => {
    // getUserMedia needs a secure context: a page on localhost is one
    server = createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><body>'),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://localhost:${(server.address() as AddressInfo).port}/`;
    browser = await launchBrowser(faceVideoArgs());
  });
  afterAll(async () => {
    await browser?.close();
    server?.close();
    await pool.close();
  });

  it("is Chromium's camera at 1280x720 and shows one face to the face engine", async () => {
    const page = await browser.newPage();
    await page.goto(base);
    const shot = await page.evaluate(async () => {
      const stream = await navigator.mediaDevices.getUserMedia({ video: { width: 1280, height: 720 } });
      const video = document.createElement('video');
      video.muted = true;
      video.srcObject = stream;
      await video.play();
      await new Promise((r) => setTimeout(r, 300));
      const canvas = document.createElement('canvas');
      canvas.width = video.videoWidth;
      canvas.height = video.videoHeight;
      canvas.getContext('2d')!.drawImage(video, 0, 0);
      stream.getTracks().forEach((t) => t.stop());
      return { width: canvas.width, height: canvas.height, jpeg: canvas.toDataURL('image/jpeg', 0.9) };
    });
    expect([shot.width, shot.height]).toEqual([1280, 720]);
    const seen = await pool.analyze(Buffer.from(shot.jpeg.split(',')[1]!, 'base64'));
    expect(seen.faces).toHaveLength(1);
  });
});
