/**
 * The device checks' rules that the server enforces and the web app shows: which steps an exam requires before
 * the exam starts, and when the camera's first picture is good enough to pass.
 */
import { MONITOR_STEPS, type MonitorStepKey } from './enums.js';

/**
 * Similarity (0 to 1) below which a face is taken for someone else. On the face fixtures the same person scores
 * 0.69 to 1 across crops and scales, different people 0.15 to 0.45; 0.55 sits between the two groups.
 */
export const FACE_MATCH_THRESHOLD = 0.55;

/**
 * Object-detector confidence (0 to 1) from which a phone counts as seen, by the server's face check and the exam
 * page's monitor alike.
 */
export const PHONE_MIN_SCORE = 0.3;

/**
 * The face library's (@vladmandic/human) settings of every face check, the server's and the exam page's monitor
 * alike, so both read a picture the same way: the WASM backend on one thread, every picture independent (no reuse
 * between frames), faces with their descriptions, phones from the object detector; `files` is where the models and
 * the backend's binaries are (a file: URL on the server, /face-models/ in the browser).
 */
export function faceLibrarySettings(files: {
  wasmPath: string;
  modelBasePath: string;
  rotation: boolean;
  mesh: boolean;
}) {
  return {
    backend: 'wasm',
    wasmPath: files.wasmPath,
    // the threaded binary needs cross-origin isolation (SharedArrayBuffer)
    wasmPlatformFetch: false,
    modelBasePath: files.modelBasePath,
    debug: false,
    warmup: 'none',
    cacheSensitivity: 0,
    skipAllowed: false,
    filter: { enabled: false },
    face: {
      enabled: true,
      detector: { rotation: files.rotation, maxDetected: 10, minConfidence: 0.5, skipFrames: 0, skipTime: 0 },
      mesh: { enabled: files.mesh },
      iris: { enabled: false },
      emotion: { enabled: false },
      description: { enabled: true, skipFrames: 0, skipTime: 0 },
      antispoof: { enabled: false },
      liveness: { enabled: false },
      attention: { enabled: false },
      gear: { enabled: false },
    },
    body: { enabled: false },
    hand: { enabled: false },
    gesture: { enabled: false },
    segmentation: { enabled: false },
    object: {
      enabled: true,
      modelPath: 'centernet.json',
      minConfidence: 0.2,
      maxDetected: 20,
      skipFrames: 0,
      skipTime: 0,
    },
  } as const;
}

/** A step id of the monitor phase: -5 camera to -1 signature. */
export type MonitorStepId = (typeof MONITOR_STEPS)[number]['id'];

/** What a step's latest recorded outcome is. */
export type CheckResult = 'passed' | 'skipped';

/** The exam settings that shape the checks (the is_skip_* and is_close_* flags). */
export type CheckSettings = {
  [K in NonNullable<(typeof MONITOR_STEPS)[number]['skipFlag' | 'closeFlag']>]: 0 | 1;
};

/** Why the camera's first picture does not pass: no face, more than one, or a face unlike the ID photo. */
export type CameraProblem = 'no_face' | 'several_faces' | 'id_mismatch';

/**
 * The camera step passes only on a first picture with exactly one face that, when the invitation carries an ID
 * photo, matches it; null when it passes.
 */
export function cameraProblem(faceCount: number, idSimilarity: number | null): CameraProblem | null {
  if (faceCount === 0) return 'no_face';
  if (faceCount > 1) return 'several_faces';
  if (idSimilarity !== null && idSimilarity < FACE_MATCH_THRESHOLD) return 'id_mismatch';
  return null;
}

/** Whether the exam lets the candidate skip the step (the signed pledge never). */
export function stepSkippable(settings: CheckSettings, step: MonitorStepKey): boolean {
  const flag = MONITOR_STEPS.find((s) => s.key === step)?.skipFlag ?? null;
  return flag !== null && settings[flag] === 1;
}

/** The steps the exam keeps (its is_close_* flags remove the others), in order. */
export function requiredSteps(settings: CheckSettings): (typeof MONITOR_STEPS)[number][] {
  return MONITOR_STEPS.filter((s) => s.closeFlag === null || settings[s.closeFlag] !== 1);
}

/**
 * The steps that still stand between the candidate and the exam: every step the exam keeps needs a passed
 * result, or a skip where the exam allows skipping that step.
 */
export function missingChecks(settings: CheckSettings, results: ReadonlyMap<number, CheckResult>): MonitorStepKey[] {
  return requiredSteps(settings)
    .filter((s) => {
      const result = results.get(s.id);
      return result !== 'passed' && !(result === 'skipped' && stepSkippable(settings, s.key));
    })
    .map((s) => s.key);
}

/** What a candidate has ready for the device checks: a device, the pledge, or the ID photo staff compare with. */
export type PrepareKey = 'camera' | 'microphone' | 'screen' | 'phone' | 'signature' | 'id_photo';

const PREPARE_OF_STEP: Record<MonitorStepKey, PrepareKey> = {
  camera: 'camera',
  microphone: 'microphone',
  screenSharing: 'screen',
  mobileDevice: 'phone',
  signature: 'signature',
};

/**
 * What to prepare for an exam's checks, in check order: each step the exam keeps (optional where it may be
 * skipped), and the ID photo when the camera's picture is compared with one.
 */
export function devicesToPrepare(
  settings: CheckSettings,
  idPhotoRequired: boolean,
): { item: PrepareKey; optional: boolean }[] {
  const steps = requiredSteps(settings).map((s) => ({
    item: PREPARE_OF_STEP[s.key],
    optional: stepSkippable(settings, s.key),
  }));
  return idPhotoRequired ? [...steps, { item: 'id_photo' as const, optional: false }] : steps;
}
