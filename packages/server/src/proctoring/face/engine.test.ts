import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FACE_MATCH_THRESHOLD } from '../../services/faceCheck.js';
import { facePhoto, flatPhoto, phonePhoto, twoFacesPhoto } from '../../bench/facePhotos.js';
import { PHONE_MIN_SCORE } from '@examhall/contract';
import { faceSimilarity, type FaceAnalysis } from './engine.js';
import { decodeImage, ImageUnreadableError, sniffImage } from './image.js';
import { FaceBusyError, FacePool } from './pool.js';

describe('image decoding', () => {
  it('reads JPEG and PNG by their signature and refuses anything else', async () => {
    const jpg = await decodeImage(facePhoto('a', 320, 240));
    expect([jpg.width, jpg.height, jpg.data.length]).toEqual([320, 240, 320 * 240 * 3]);
    const png = await decodeImage(flatPhoto(8, 4));
    expect([png.width, png.height]).toEqual([8, 4]);
    expect(png.data.every((v) => v === 128)).toBe(true);
    expect(sniffImage(Buffer.from('GIF89a'))).toBeNull();
    await expect(decodeImage(Buffer.from('not a picture at all'))).rejects.toThrow(ImageUnreadableError);
    // a JPEG cut off after its header
    await expect(decodeImage(facePhoto('a').subarray(0, 300))).rejects.toThrow(ImageUnreadableError);
    // a PNG header announcing 100000 x 100000 pixels is refused before anything is allocated
    const huge = Buffer.from(flatPhoto(8, 8));
    huge.writeUInt32BE(100_000, 16);
    huge.writeUInt32BE(100_000, 20);
    await expect(decodeImage(huge)).rejects.toThrow(/too large/);
  });

  it("decodes a large picture at the models' size and keeps its own size", async () => {
    const big = await decodeImage(facePhoto('a', 1280, 720));
    expect([big.width, big.height, big.data.length]).toEqual([640, 360, 640 * 360 * 3]);
    expect([big.sourceWidth, big.sourceHeight]).toEqual([1280, 720]);
    // the same face, decoded whole and reduced, looks alike: mean absolute difference of a reduced copy
    const small = await decodeImage(facePhoto('a', 640, 360));
    let diff = 0;
    for (let i = 0; i < small.data.length; i++) diff += Math.abs(small.data[i]! - big.data[i]!);
    expect(diff / small.data.length).toBeLessThan(12);
  });
});

describe('face engine on worker threads', () => {
  const pool = new FacePool({ size: 2 });
  const seen: Record<string, FaceAnalysis> = {};

  beforeAll(async () => {
    // one model load per file; every picture of the file is analysed here, in parallel on the pool
    const pictures = {
      a: facePhoto('a'),
      a720: facePhoto('a', 1280, 720),
      c: facePhoto('c'),
      b: facePhoto('b'),
      d: facePhoto('d'),
      flat: flatPhoto(),
      two: twoFacesPhoto('a', 'b'),
      phone: phonePhoto(),
      phoneFurther: phonePhoto(1.5),
    };
    const results = await Promise.all(Object.values(pictures).map((p) => pool.analyze(p)));
    Object.keys(pictures).forEach((k, i) => (seen[k] = results[i]!));
  }, 120_000);
  afterAll(async () => pool.close());

  it('finds one face with an embedding in a real photo', () => {
    expect(seen.a!.faces).toHaveLength(1);
    expect(seen.a!.faces[0]!.embedding).toHaveLength(1024);
    expect(seen.a!.faces[0]!.score).toBeGreaterThan(0.5);
    expect(seen.a720!.faces).toHaveLength(1);
  });

  it('scores the same face high and other people below the match threshold', () => {
    const a = seen.a!.faces[0]!.embedding;
    expect(faceSimilarity(a, a)).toBeGreaterThan(0.99);
    expect(faceSimilarity(a, seen.a720!.faces[0]!.embedding)).toBeGreaterThanOrEqual(FACE_MATCH_THRESHOLD);
    expect(faceSimilarity(a, seen.c!.faces[0]!.embedding)).toBeGreaterThanOrEqual(FACE_MATCH_THRESHOLD);
    expect(faceSimilarity(a, seen.b!.faces[0]!.embedding)).toBeLessThan(FACE_MATCH_THRESHOLD);
    expect(faceSimilarity(a, seen.d!.faces[0]!.embedding)).toBeLessThan(FACE_MATCH_THRESHOLD);
    expect(faceSimilarity(a, [])).toBe(0);
  });

  it('counts no face in a flat picture and two in two photos side by side', () => {
    expect(seen.flat!.faces).toHaveLength(0);
    expect(seen.two!.faces).toHaveLength(2);
  });

  it('sees a phone with the object detector the package ships, and none in a portrait', () => {
    expect(seen.phone!.phoneScore).toBeGreaterThanOrEqual(PHONE_MIN_SCORE);
    // the same phone two thirds as large: the detector's reduced input still sees it
    expect(seen.phoneFurther!.phoneScore).toBeGreaterThanOrEqual(PHONE_MIN_SCORE);
    expect(seen.a!.phoneScore).toBeLessThan(PHONE_MIN_SCORE);
    expect(seen.flat!.phoneScore).toBeLessThan(PHONE_MIN_SCORE);
  });

  it('reports an unreadable picture as such and keeps working', async () => {
    await expect(pool.analyze(Buffer.from('\xff\xd8\xffgarbage', 'latin1'))).rejects.toBeInstanceOf(
      ImageUnreadableError,
    );
    expect((await pool.analyze(facePhoto('b', 320, 240))).faces).toHaveLength(1);
  });

  it('keeps the event loop free while pictures are analysed', async () => {
    const pictures = [facePhoto('a'), facePhoto('b'), facePhoto('d')];
    let worst = 0;
    let last = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      worst = Math.max(worst, now - last);
      last = now;
    }, 5);
    const results = await Promise.all(pictures.map((p) => pool.analyze(p)));
    clearInterval(timer);
    // run on the event loop, each picture's inference would stall the timer for its whole length
    const longest = Math.max(...results.map((r) => r.inferMs));
    expect(worst).toBeLessThan(longest / 2);
  });

  it('refuses pictures past the bounded queue instead of piling them up', async () => {
    const small = new FacePool({ size: 1, maxQueue: 1 });
    try {
      await small.start();
      const picture = facePhoto('a', 320, 240);
      const settled = await Promise.allSettled([1, 2, 3, 4].map(() => small.analyze(picture)));
      const busy = settled.filter((r) => r.status === 'rejected' && r.reason instanceof FaceBusyError);
      const done = settled.filter((r) => r.status === 'fulfilled');
      // one running, one waiting, the rest refused
      expect(done).toHaveLength(2);
      expect(busy).toHaveLength(2);
    } finally {
      await small.close();
    }
  }, 60_000);
});
