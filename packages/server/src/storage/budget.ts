/**
 * The storage budget of evidence, in one place: how large each kind of object may be, how many of each an attempt is
 * expected to upload given its exam's settings, the attempt's budget those add up to (its storage quota, set when
 * upload credentials are issued) and an exam's total. The local store's gateway refuses an object over its kind's
 * limit before storing it, and the recording calls refuse one on any store (S3-compatible storage takes whatever PUT
 * its credentials allow, so there the object is deleted).
 */
import { CAPTURE, FACE_IMG_MAX_BYTES, type EvidenceKind } from '@examhall/contract';

const KB = 1024;
const MB = 1024 * 1024;

/**
 * Largest picture at the capture size (1280x720): one byte a pixel. The page's JPEGs (quality 0.85) of a camera
 * or a screen are 90 to 280 KB; pure noise, the worst a JPEG of that size and quality can be, is about 640 KB.
 */
export const PICTURE_MAX_BYTES = CAPTURE.width * CAPTURE.height;
/** What the budget counts for each picture at the capture size: the high end of real ones. */
export const PICTURE_BUDGET_BYTES = 300 * KB;
/** The bit rate recordings are budgeted at: twice the 128 kbit/s browsers record Opus at by default. */
export const RECORDING_BITS_PER_SECOND = 256_000;
/** A minute of recording at that rate (1,920,000 bytes): the most one recording may be. */
export const RECORDING_BYTES_PER_MINUTE = (RECORDING_BITS_PER_SECOND / 8) * 60;
/** How long the page records at a time, at most once a minute (BYTE_LENGTH_MS and BYTE_THROTTLE_MS of captures.ts). */
export const RECORDING_SECONDS = 5;
/** What the budget counts for each recording: its seconds at the budgeted rate (160,000 bytes). */
export const RECORDING_BUDGET_BYTES = (RECORDING_BITS_PER_SECOND / 8) * RECORDING_SECONDS;
/** Largest fixed picture: the first picture, the signature (a PNG at the screen's pixel ratio), a name of no kind. */
export const FIXED_PICTURE_MAX_BYTES = 2 * MB;
/** Fixed pictures an attempt may upload: first pictures taken again until the camera check passes, the signature. */
export const FIXED_PICTURES = 12;
/** Minutes of device checks before the exam: the phone sends pictures from its own check on. */
export const CHECK_MINUTES = 30;
/** Margin over what the settings lead to expect: a reload takes its captures at once, a second tab its own. */
export const BUDGET_MARGIN = 1.25;

/** The kind of an object for its size limit: an evidence kind, or `other` for a name the pages never use. */
export type BudgetKind = EvidenceKind | 'other';

/** The most one object of each kind may be, in bytes. */
export const OBJECT_MAX_BYTES: Readonly<Record<BudgetKind, number>> = {
  frame: PICTURE_MAX_BYTES,
  screen: PICTURE_MAX_BYTES,
  phone: PICTURE_MAX_BYTES,
  pertinent: PICTURE_MAX_BYTES,
  byte: RECORDING_BYTES_PER_MINUTE,
  first_picture: FIXED_PICTURE_MAX_BYTES,
  signature: FIXED_PICTURE_MAX_BYTES,
  other: FIXED_PICTURE_MAX_BYTES,
  // Stored by the server, never uploaded: the picture a face check was asked about, held to that call's limit.
  face: FACE_IMG_MAX_BYTES,
};

/** The largest object a browser may upload under an attempt's prefix. */
export const UPLOAD_MAX_BYTES = Math.max(
  ...(['frame', 'screen', 'phone', 'pertinent', 'byte', 'first_picture', 'signature', 'other'] as const).map(
    (k) => OBJECT_MAX_BYTES[k],
  ),
);

/** An ID photo (one per invitation, outside the attempts' prefixes) is held to the face check's limit. */
export const ID_PHOTO_MAX_BYTES = FACE_IMG_MAX_BYTES;

/** Kinds whose objects the pages put in a folder of the kind's name. */
const FOLDERS = ['frame', 'screen', 'phone', 'pertinent', 'byte', 'face', 'signature'] as const;

/**
 * The kind of an object by its name under the attempt's prefix, as the candidate's and the phone's pages name them
 * (`frame/...`, `screen/...`, `phone/...`, `pertinent/...`, `byte/...`, `first-picture-...`, `signature-...`).
 */
export function kindOfName(name: string): BudgetKind {
  const folder = /^([a-z_]+)\//.exec(name)?.[1] ?? '';
  const kind = FOLDERS.find((k) => k === folder);
  if (kind) return kind;
  if (name.startsWith('first-picture')) return 'first_picture';
  if (name.startsWith('signature')) return 'signature';
  return 'other';
}

/** The exam settings a budget is derived from. */
export interface BudgetSettings {
  /** Seconds between captures. */
  capture_interval: number;
  /** 1 when the camera step (and its frames) is removed. */
  is_close_camera: number;
  /** 1 when screen sharing is removed. */
  is_close_screen: number;
  /** 1 when the phone (second view) is removed. */
  is_close_phone: number;
  /** 1 when the microphone is removed. */
  is_close_microphone: number;
}

/** An attempt's budget: objects expected of each kind, and the quota they make with the margin. */
export interface AttemptBudget {
  /** Objects the settings lead to expect, by kind (`fixed`: first pictures and the signature). */
  counts: { frame: number; screen: number; pertinent: number; phone: number; byte: number; fixed: number };
  /** Bytes: each picture at PICTURE_BUDGET_BYTES and each recording at RECORDING_BUDGET_BYTES, times the margin. */
  maxBytes: number;
  /** Objects: the counts times the margin. */
  maxObjects: number;
}

/**
 * The budget of an attempt of `minutes` (its exam's time, or its own when extra time makes it longer): a frame and
 * a screen capture per capture interval while those are on, as many pictures of risk events when either is, a phone
 * picture per interval from the phone's check on, a recording a minute while the microphone is on, and the fixed
 * pictures; all times BUDGET_MARGIN.
 */
export function attemptBudget(settings: BudgetSettings, minutes: number): AttemptBudget {
  // The page captures on starting too, then once per interval.
  const shots = (m: number) => Math.ceil((m * 60) / Math.max(1, settings.capture_interval)) + 1;
  const on = (closed: number) => closed !== 1;
  const camera = on(settings.is_close_camera);
  const screen = on(settings.is_close_screen);
  const counts = {
    frame: camera ? shots(minutes) : 0,
    screen: screen ? shots(minutes) : 0,
    pertinent: camera || screen ? shots(minutes) : 0,
    phone: on(settings.is_close_phone) ? shots(minutes + CHECK_MINUTES) : 0,
    byte: on(settings.is_close_microphone) ? Math.ceil(minutes) + 1 : 0,
    fixed: FIXED_PICTURES,
  };
  const pictures = counts.frame + counts.screen + counts.pertinent + counts.phone + counts.fixed;
  const bytes = pictures * PICTURE_BUDGET_BYTES + counts.byte * RECORDING_BUDGET_BYTES;
  return {
    counts,
    maxBytes: Math.ceil(BUDGET_MARGIN * bytes),
    maxObjects: Math.ceil(BUDGET_MARGIN * (pictures + counts.byte)),
  };
}

/**
 * The most an exam's evidence may take, in bytes, for sizing the store: each invited candidate's attempt at its
 * budget over the exam's time, and their ID photo. It is a bound because attempts come only from invitations and
 * each is held to its quota; extra time given to candidates adds to their own budgets.
 */
export function examTotal(settings: BudgetSettings, timeMinutes: number, candidates: number): number {
  return candidates * (attemptBudget(settings, timeMinutes).maxBytes + ID_PHOTO_MAX_BYTES);
}
