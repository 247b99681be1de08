/**
 * Real face photos for tests, bench:face and the browser journey's fake camera, made offline from the sample pictures the @vladmandic/face-api npm package
 * ships (MIT; demo/sample*.jpg are group photos). Each person is a fixed crop around one face, scaled to the
 * size asked for, so a test gets a webcam-like picture with exactly one face.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';

const require = createRequire(import.meta.url);

/** A person of the fixtures: a, b and d are three different people; c is person a again, cropped tighter. */
export type FacePerson = 'a' | 'b' | 'c' | 'd';

/** Crop of each person: sample picture, face centre and the region's width (4:3) in source pixels. */
const PEOPLE: Record<FacePerson, { sample: number; cx: number; cy: number; w: number }> = {
  a: { sample: 6, cx: 775, cy: 520, w: 500 },
  b: { sample: 1, cx: 1573, cy: 348, w: 500 },
  c: { sample: 6, cx: 775, cy: 496, w: 420 },
  d: { sample: 6, cx: 1590, cy: 457, w: 500 },
};

/** An RGBA picture. */
export interface RgbaFrame {
  width: number;
  height: number;
  /** width * height * 4 bytes. */
  data: Uint8Array;
}

/** The folder of the face-api package's sample pictures. */
export function samplesDir(): string {
  let dir = path.dirname(require.resolve('@vladmandic/face-api'));
  while (!existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  return path.join(dir, 'demo');
}

const decoded = new Map<number, RgbaFrame>();

function sample(n: number): RgbaFrame {
  let img = decoded.get(n);
  if (!img) {
    const out = jpeg.decode(readFileSync(path.join(samplesDir(), `sample${n}.jpg`)), { useTArray: true });
    img = { width: out.width, height: out.height, data: out.data };
    decoded.set(n, img);
  }
  return img;
}

/** One person's face as an RGBA frame of `width` x `height` (nearest-neighbour scaling of the crop). */
export function faceFrame(person: FacePerson, width = 640, height = 480): RgbaFrame {
  const p = PEOPLE[person];
  const src = sample(p.sample);
  // keep the output's aspect ratio, centred on the face
  const w = p.w;
  const h = (w * height) / width;
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    const sy = Math.min(src.height - 1, Math.max(0, Math.round(p.cy - h / 2 + (y * h) / height)));
    for (let x = 0; x < width; x++) {
      const sx = Math.min(src.width - 1, Math.max(0, Math.round(p.cx - w / 2 + (x * w) / width)));
      const i = (sy * src.width + sx) * 4;
      const o = (y * width + x) * 4;
      data[o] = src.data[i]!;
      data[o + 1] = src.data[i + 1]!;
      data[o + 2] = src.data[i + 2]!;
      data[o + 3] = 255;
    }
  }
  return { width, height, data };
}

/** Encodes an RGBA frame as JPEG. */
export function toJpeg(frame: RgbaFrame, quality = 90): Buffer {
  return jpeg.encode({ width: frame.width, height: frame.height, data: Buffer.from(frame.data) }, quality).data;
}

/** One person's face as a JPEG camera picture. */
export function facePhoto(person: FacePerson = 'a', width = 640, height = 480): Buffer {
  return toJpeg(faceFrame(person, width, height));
}

/**
 * Two people side by side in one 1280x960 JPEG (two faces), on grey above and below: a 4:3 picture like a
 * camera's, since the detector squeezes its input into a square and a 2:1 picture would distort the faces.
 */
export function twoFacesPhoto(left: FacePerson = 'a', right: FacePerson = 'b'): Buffer {
  const l = faceFrame(left, 640, 480);
  const r = faceFrame(right, 640, 480);
  const data = new Uint8Array(1280 * 960 * 4).fill(128);
  for (let y = 0; y < 480; y++) {
    const row = (y + 240) * 1280;
    data.set(l.data.subarray(y * 640 * 4, (y + 1) * 640 * 4), row * 4);
    data.set(r.data.subarray(y * 640 * 4, (y + 1) * 640 * 4), (row + 640) * 4);
  }
  return toJpeg({ width: 1280, height: 960, data });
}

/** A flat grey PNG: a picture with no face in it (a covered camera). */
export function flatPhoto(width = 640, height = 480): Buffer {
  const png = new PNG({ width, height });
  png.data.fill(128);
  return PNG.sync.write(png);
}

/**
 * A phone lying on a sofa (from sample2, no face in the crop): a picture with a phone in it. At scale 1 the
 * 640x480 picture is the sample's pixels; at a larger scale it shows a larger region shrunk to 640x480, so the
 * phone looks smaller (as one held further from the camera).
 */
export function phonePhoto(scale = 1): Buffer {
  const src = sample(2);
  const y0 = src.height - 480 * scale;
  const data = new Uint8Array(640 * 480 * 4);
  for (let y = 0; y < 480; y++) {
    const sy = Math.max(0, Math.floor(y0 + y * scale));
    for (let x = 0; x < 640; x++) {
      const i = (sy * src.width + Math.min(src.width - 1, Math.floor(x * scale))) * 4;
      data.set(src.data.subarray(i, i + 4), (y * 640 + x) * 4);
    }
  }
  return toJpeg({ width: 640, height: 480, data });
}
