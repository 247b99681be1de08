/** The monitor page's server calls: a step's outcome, the first picture with its face check, the signature. */
import { type FaceRecognizeData, type MonitorStepKey, monitorCalls } from '@examhall/contract';
import { isApiError, request, upload } from '../api/client.js';
import { serverNow } from '../exam/clock.js';
import { examCredentials } from './credentials.js';
import { grabStill } from './frames.js';
import { putObject } from './upload.js';

/** Step ids, -5 to -1 in check order. */
export const STEP_IDS: Record<MonitorStepKey, -5 | -4 | -3 | -2 | -1> = {
  camera: -5,
  microphone: -4,
  screenSharing: -3,
  mobileDevice: -2,
  signature: -1,
};

/** Records one step's outcome (a skip records risk 15..18 on the server). */
export async function recordCheck(
  examId: number,
  step: MonitorStepKey,
  result: 'passed' | 'skipped',
  device?: string,
): Promise<void> {
  await request(monitorCalls.check, {
    body: {
      exam_id: examId,
      step: STEP_IDS[step],
      result,
      ...(device ? { device } : {}),
      client_id: crypto.randomUUID(),
    },
  });
}

/** What the first picture's face check answered. */
export interface FirstPictureResult {
  /** Object key of the picture. */
  key: string;
  /** The face check, or null when it could not be made (the picture is recorded anyway). */
  face: FaceRecognizeData | null;
  /** Why the face check could not be made. */
  faceError: string | null;
}

/**
 * Takes the first picture from the camera (mirrored 1280x720 JPEG), uploads it, records it with
 * /monitor/first-picture and asks /tools/face_recognize about it.
 */
export async function takeFirstPicture(examId: number, camera: MediaStream): Promise<FirstPictureResult> {
  const blob = await grabStill(camera, { mirror: true });
  const trigger_time = serverNow();
  const { key, sha256 } = await putObject(
    examCredentials(examId),
    `first-picture-${trigger_time}.jpg`,
    blob,
    'image/jpeg',
  );
  await request(monitorCalls.firstPicture, { body: { exam_id: examId, key, sha256, trigger_time } });
  const checked = await checkFace(examId, blob);
  return { key, ...checked };
}

/** Face check attempts after a timeout: the server's face engine may still be loading its models. */
const FACE_TRIES = 3;

/** Asks /tools/face_recognize about a picture; a timeout is tried again, any failure is answered as faceError. */
export async function checkFace(
  examId: number,
  picture: Blob,
): Promise<{ face: FaceRecognizeData | null; faceError: string | null }> {
  for (let tryNo = 1; ; tryNo++) {
    try {
      const face = await upload(monitorCalls.faceRecognize, {
        exam_id: examId,
        face_img: new File([picture], 'first-picture.jpg', { type: 'image/jpeg' }),
      });
      return { face, faceError: null };
    } catch (e) {
      if (isApiError(e) && e.code === 'timeout' && tryNo < FACE_TRIES) continue;
      console.warn('[proctor] face check failed:', e instanceof Error ? e.message : e);
      return { face: null, faceError: e instanceof Error ? e.message : String(e) };
    }
  }
}

/** Uploads the signed pledge (PNG) and records it as the signature capture. */
export async function saveSignature(examId: number, png: Blob): Promise<string> {
  const trigger_time = serverNow();
  const { key, sha256 } = await putObject(examCredentials(examId), `signature-${trigger_time}.png`, png, 'image/png');
  await request(monitorCalls.capture, {
    body: { exam_id: examId, kind: 'signature', key, sha256, trigger_time, client_id: crypto.randomUUID() },
  });
  return key;
}
