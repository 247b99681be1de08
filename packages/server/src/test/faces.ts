/** The face check in tests: the pictures it is shown, and its call as the candidate's browser makes it. */
import type { FaceRecognizeData } from '@examhall/contract';
import { expect } from 'vitest';
import { facePhoto, flatPhoto, twoFacesPhoto } from '../bench/facePhotos.js';
import { body, type TestApp } from './app.js';
import { multipart } from './multipart.js';

/** Person a (twice: `a` and `sameA`), person b, a picture with no face and one with two. */
export function facePictures() {
  return {
    a: facePhoto('a'),
    sameA: facePhoto('c'),
    b: facePhoto('b'),
    flat: flatPhoto(),
    two: twoFacesPhoto('a', 'd'),
  };
}

/** POSTs a picture to /tools/face_recognize with the candidate's token (field `face_img` unless said). */
export function recognizeFace(
  t: TestApp,
  token: string,
  picture: Buffer,
  opts: { exam: number | string; field?: string },
) {
  const form = multipart(
    { exam_id: String(opts.exam) },
    { name: 'face.jpg', type: 'image/jpeg', data: picture, field: opts.field ?? 'face_img' },
  );
  return t.app.inject({ method: 'POST', url: `/api/tools/face_recognize?auth=${token}`, ...form });
}

/** The face check's answer to a picture at `examId`, expecting success. */
export async function faceCheck(
  t: TestApp,
  token: string,
  examId: number,
  picture: Buffer,
): Promise<FaceRecognizeData> {
  const res = await recognizeFace(t, token, picture, { exam: examId });
  expect(res.statusCode, res.body).toBe(200);
  return body<FaceRecognizeData>(res).data;
}
