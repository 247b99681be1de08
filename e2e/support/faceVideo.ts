/**
 * A face video for Chromium's fake camera (`--use-file-for-fake-video-capture=<file>`): one person facing
 * the camera, cut from a sample photo the @vladmandic/face-api npm package ships (see
 * packages/server/src/bench/facePhotos.ts), written at test time as a Y4M file. Pure JavaScript, offline.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { faceFrame, type FacePerson, type RgbaFrame } from '../../packages/server/src/bench/facePhotos.js';

/** What the camera sees: one person, two people side by side, or nobody (a covered camera). */
export type CameraScene = 'face' | 'twoFaces' | 'empty';

/** Options of the face video. */
export interface FaceVideoOptions {
  /** Who is in the picture (default 'a'); with 'twoFaces', the left one (person d on the right). */
  person?: FacePerson;
  /** What the camera sees (default 'face'). */
  scene?: CameraScene;
  /** Frame width, even (default 1280). */
  width?: number;
  /** Frame height, even (default 720). */
  height?: number;
  /** Frames in the file; Chromium loops it, so one still frame is a steady camera (default 1). */
  frames?: number;
  /**
   * Scenes one after the other, each for a number of frames, instead of `scene` and `frames`: Chromium plays the
   * file from its start each time the camera is opened, then loops it (e.g. a face, then nobody).
   */
  sequence?: readonly { scene: CameraScene; frames: number }[];
  /** Frames a second Chromium plays the file at (default 30); a slow rate keeps a long sequence small. */
  fps?: number;
  /** File to write (default: a new temporary folder). */
  file?: string;
}

/** RGBA to planar YUV 4:2:0 (full-range BT.601, as Y4M's C420jpeg says): Y plane, then U, then V. */
export function rgbaToI420(frame: RgbaFrame): Buffer {
  const { width: w, height: h, data } = frame;
  if (w % 2 !== 0 || h % 2 !== 0) throw new Error('I420 needs an even width and height');
  const out = Buffer.alloc(w * h + (w / 2) * (h / 2) * 2);
  const uOff = w * h;
  const vOff = uOff + (w / 2) * (h / 2);
  const clamp = (v: number) => (v < 0 ? 0 : v > 255 ? 255 : Math.round(v));
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = (y * w + x) * 4;
      out[y * w + x] = clamp(0.299 * data[i]! + 0.587 * data[i + 1]! + 0.114 * data[i + 2]!);
    }
  }
  // chroma from the average of each 2x2 block
  for (let y = 0; y < h; y += 2) {
    for (let x = 0; x < w; x += 2) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (const [dx, dy] of [
        [0, 0],
        [1, 0],
        [0, 1],
        [1, 1],
      ] as const) {
        const i = ((y + dy) * w + x + dx) * 4;
        r += data[i]!;
        g += data[i + 1]!;
        b += data[i + 2]!;
      }
      r /= 4;
      g /= 4;
      b /= 4;
      const o = (y / 2) * (w / 2) + x / 2;
      out[uOff + o] = clamp(-0.168736 * r - 0.331264 * g + 0.5 * b + 128);
      out[vOff + o] = clamp(0.5 * r - 0.418688 * g - 0.081312 * b + 128);
    }
  }
  return out;
}

/** One frame of the scene at width x height. */
export function sceneFrame(scene: CameraScene, person: FacePerson, width: number, height: number): RgbaFrame {
  if (scene === 'face') return faceFrame(person, width, height);
  const data = new Uint8Array(width * height * 4).fill(128);
  if (scene === 'twoFaces') {
    const half = width / 2;
    for (const [i, who] of [person, person === 'd' ? 'a' : 'd'].entries()) {
      const part = faceFrame(who as FacePerson, half, height);
      for (let y = 0; y < height; y++)
        data.set(part.data.subarray(y * half * 4, (y + 1) * half * 4), (y * width + i * half) * 4);
    }
  }
  return { width, height, data };
}

/** Cells across and down of a scene's signature. */
const SIGNATURE_CELLS = 4;

/**
 * A scene's signature: the mean brightness (0-255) of each cell of a 4 x 4 grid over the frame, row by row. Two
 * scenes differ by far more than a camera's scaling and encoding change one.
 */
export function signatureOf(frame: RgbaFrame): number[] {
  const { width: w, height: h, data } = frame;
  const sums = new Array<number>(SIGNATURE_CELLS * SIGNATURE_CELLS).fill(0);
  const counts = new Array<number>(SIGNATURE_CELLS * SIGNATURE_CELLS).fill(0);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const cell = Math.floor((y * SIGNATURE_CELLS) / h) * SIGNATURE_CELLS + Math.floor((x * SIGNATURE_CELLS) / w);
      const i = (y * w + x) * 4;
      sums[cell]! += (data[i]! + data[i + 1]! + data[i + 2]!) / 3;
      counts[cell]! += 1;
    }
  }
  return sums.map((s, i) => s / counts[i]!);
}

/** The signature of a scene as written by writeFaceVideo with the same options. */
export function sceneSignature(opts: FaceVideoOptions = {}): number[] {
  return signatureOf(sceneFrame(opts.scene ?? 'face', opts.person ?? 'a', opts.width ?? 1280, opts.height ?? 720));
}

/** Writes the face video as Y4M and answers its path. */
export function writeFaceVideo(opts: FaceVideoOptions = {}): string {
  const width = opts.width ?? 1280;
  const height = opts.height ?? 720;
  const sequence = opts.sequence ?? [{ scene: opts.scene ?? 'face', frames: Math.max(1, opts.frames ?? 1) }];
  const file = opts.file ?? path.join(mkdtempSync(path.join(os.tmpdir(), 'examhall-face-video-')), 'face.y4m');
  const parts: Buffer[] = [Buffer.from(`YUV4MPEG2 W${width} H${height} F${opts.fps ?? 30}:1 Ip A1:1 C420jpeg\n`)];
  for (const { scene, frames } of sequence) {
    const yuv = rgbaToI420(sceneFrame(scene, opts.person ?? 'a', width, height));
    for (let i = 0; i < frames; i++) parts.push(Buffer.from('FRAME\n'), yuv);
  }
  writeFileSync(file, Buffer.concat(parts));
  return file;
}

/** The Chromium flag that feeds a freshly written face video to the fake camera. */
export function faceVideoArgs(opts: FaceVideoOptions = {}): string[] {
  return [`--use-file-for-fake-video-capture=${writeFaceVideo(opts)}`];
}
