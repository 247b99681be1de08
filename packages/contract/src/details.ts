/**
 * The vocabulary of risk and evidence details. A detail is stored as text and chained into the attempt's
 * hash, so it is written once in a form every reader can take apart: a small JSON object naming its kind
 * (`d`) and its parameters. Writers call the builders below; readers call `describeDetail`, which gives
 * the kind and parameters a page turns into words in its own language, or null for text written before
 * this vocabulary existed (shown as it was written).
 */
import { z } from 'zod';
import { MONITOR_STEPS } from './enums.js';

/** The longest pasted text a detail keeps, so the proctor sees what was pasted without the record growing. */
export const PASTE_HEAD_CHARS = 200;

const Step = z.union([z.literal(-5), z.literal(-4), z.literal(-3), z.literal(-2), z.literal(-1)]);
const Track = z.enum(['camera', 'microphone', 'screen']);
const Count = z.number().int().nonnegative();

/** When a second screen was seen: at the device check, when the exam page opened, when the screens changed. */
export const SCREEN_MOMENTS = ['check', 'exam', 'change'] as const;
/** When a second screen was seen. */
export type ScreenMoment = (typeof SCREEN_MOMENTS)[number];

/**
 * The signs of a virtual machine or remote desktop a page can read: a software renderer (SwiftShader, llvmpipe,
 * Microsoft Basic Render Driver), a virtual adapter (VMware SVGA, VirtualBox, Parallels, QXL, virtio), a remote
 * desktop's display adapter, a screen of a virtual machine's shape, a virtual camera.
 */
export const MACHINE_SIGNS = [
  'softwareRenderer',
  'virtualAdapter',
  'remoteDisplay',
  'screenShape',
  'virtualCamera',
] as const;
/** A sign of a virtual machine or remote desktop. */
export type MachineSign = (typeof MACHINE_SIGNS)[number];

/** Each kind of detail with the parameters it carries. */
const DETAIL_PARAMS = {
  /** The face check saw no face. */
  noFace: z.object({}),
  /** The face check saw several faces. */
  faces: z.object({ n: Count }),
  /**
   * The face seen departs from the attempt's first picture (`similarity`) or the invitation's ID photo
   * (`id_similarity`), each 0 to 1; a comparison that did not fail is null.
   */
  faceMismatch: z.object({ similarity: z.number().nullable(), id_similarity: z.number().nullable() }),
  /** The face check saw a phone (detector score 0 to 1). */
  phoneSeen: z.object({ score: z.number() }),
  /** What the face check found in a picture it kept as evidence. */
  faceFindings: z.object({ faces: Count, scores: z.array(z.number()), phone: z.number() }),
  /**
   * The server's own face check of the picture a browser's face finding (risk record `record`) names: whether it
   * agrees, and what it saw (faces, phone score, its own finding's kind or null when it saw nothing wrong).
   */
  faceVerified: z.object({
    record: Count,
    agrees: z.boolean(),
    faces: Count,
    phone: z.number(),
    finding: z.enum(['noFace', 'faces', 'faceMismatch', 'phoneSeen']).nullable(),
  }),
  /** The browser said it lost the network. */
  browserOffline: z.object({}),
  /** The exam page was opened without a network. */
  pageOpenedOffline: z.object({}),
  /** An answer took this long to be acknowledged. */
  slowResponse: z.object({ ms: Count }),
  /**
   * Sends failed this many times in a row; the last error's message and, when it had one, its stable code (a
   * catalogue code or the client's own, such as `timeout`), which readers word in their language.
   */
  failedSends: z.object({ n: Count, error: z.string(), code: z.string().optional() }),
  /** The exam page was hidden. */
  pageHidden: z.object({}),
  /** The window lost focus to something outside the page. */
  windowBlur: z.object({}),
  /** The exam page was closed for this many seconds. */
  pageClosed: z.object({ s: Count }),
  /** The candidate left fullscreen. */
  leftFullscreen: z.object({}),
  /** Text from outside the page was pasted (or its paste blocked): its length and start. */
  paste: z.object({ blocked: z.boolean(), length: Count, head: z.string() }),
  /** A camera, microphone or screen track ended. */
  trackEnded: z.object({ track: Track, label: z.string() }),
  /** A camera, microphone or screen track stayed muted. */
  trackMuted: z.object({ track: Track, label: z.string() }),
  /** The phone stopped sending pictures. */
  phoneStopped: z.object({}),
  /** The page was translated by the browser; how it was seen. */
  translated: z.object({ how: z.string() }),
  /** Another account logged in in this browser (its phone, masked). */
  accountChanged: z.object({ phone: z.string() }),
  /** The outcome of a device check. */
  check: z.object({
    step: Step,
    result: z.string(),
    device: z.string().nullable(),
    /** Faces on the camera's first picture, when the camera step passed on it. */
    faces: Count.optional(),
    /** Its similarity to the ID photo, when the invitation has one. */
    id_similarity: z.number().nullable().optional(),
  }),
  /** A device check the candidate skipped. */
  stepSkipped: z.object({ step: Step }),
  /** A picture taken at a risk record. */
  riskPicture: z.object({ record: Count }),
  /** A microphone recording of this length. */
  recording: z.object({ ms: Count }),
  /** A picture taken while the browser was offline, uploaded once it was back. */
  capturedOffline: z.object({}),
  /**
   * A second screen was seen: at the device check, when the exam page opened, or when the screens changed during the
   * exam; how many screens the browser told of (null when it only said the desktop is extended) and their labels.
   */
  secondScreen: z.object({
    when: z.enum(SCREEN_MOMENTS),
    screens: Count.nullable(),
    labels: z.array(z.string()),
  }),
  /**
   * Signs of a virtual machine or a remote desktop, for a person to weigh: which signs, the graphics adapter the
   * browser named, the screen's shape (`WxH@depth`) and the camera's (its label and size), when there is one.
   */
  virtualMachine: z.object({
    signs: z.array(z.enum(MACHINE_SIGNS)),
    renderer: z.string(),
    screen: z.string(),
    camera: z.string().nullable(),
  }),
} as const;

/** A kind of detail. */
export type DetailKey = keyof typeof DETAIL_PARAMS;
/** The parameters of a kind of detail. */
export type DetailParams<K extends DetailKey> = z.infer<(typeof DETAIL_PARAMS)[K]>;
/** A detail taken apart: its kind and parameters. */
export type DescribedDetail = { [K in DetailKey]: { key: K; params: DetailParams<K> } }[DetailKey];

/** Every kind of detail, for dictionaries that must name each one. */
export const DETAIL_KEYS = Object.keys(DETAIL_PARAMS) as DetailKey[];

/** The stored text of a detail of kind `key`. */
export function buildDetail<K extends DetailKey>(key: K, params: DetailParams<K>): string {
  return JSON.stringify({ d: key, ...params });
}

/** The builders writers use, one per kind, so a detail's parameters are checked where it is written. */
export const detail = {
  noFace: () => buildDetail('noFace', {}),
  faces: (n: number) => buildDetail('faces', { n }),
  faceMismatch: (similarity: number | null, idSimilarity: number | null) =>
    buildDetail('faceMismatch', {
      similarity: similarity === null ? null : round2(similarity),
      id_similarity: idSimilarity === null ? null : round2(idSimilarity),
    }),
  phoneSeen: (score: number) => buildDetail('phoneSeen', { score: round2(score) }),
  faceFindings: (faces: number, scores: number[], phone: number) =>
    buildDetail('faceFindings', { faces, scores: scores.map(round2), phone: round2(phone) }),
  faceVerified: (
    record: number,
    agrees: boolean,
    faces: number,
    phone: number,
    finding: DetailParams<'faceVerified'>['finding'],
  ) => buildDetail('faceVerified', { record, agrees, faces, phone: round2(phone), finding }),
  browserOffline: () => buildDetail('browserOffline', {}),
  pageOpenedOffline: () => buildDetail('pageOpenedOffline', {}),
  slowResponse: (ms: number) => buildDetail('slowResponse', { ms: Math.round(ms) }),
  failedSends: (n: number, error: string, code?: string) =>
    buildDetail('failedSends', { n, error: error.slice(0, 300), ...(code ? { code: code.slice(0, 64) } : {}) }),
  pageHidden: () => buildDetail('pageHidden', {}),
  windowBlur: () => buildDetail('windowBlur', {}),
  pageClosed: (seconds: number) => buildDetail('pageClosed', { s: Math.round(seconds) }),
  leftFullscreen: () => buildDetail('leftFullscreen', {}),
  paste: (blocked: boolean, text: string) =>
    buildDetail('paste', {
      blocked,
      length: text.length,
      head: text.length > PASTE_HEAD_CHARS ? `${text.slice(0, PASTE_HEAD_CHARS)}…` : text,
    }),
  trackEnded: (track: 'camera' | 'microphone' | 'screen', label: string) => buildDetail('trackEnded', { track, label }),
  trackMuted: (track: 'camera' | 'microphone' | 'screen', label: string) => buildDetail('trackMuted', { track, label }),
  phoneStopped: () => buildDetail('phoneStopped', {}),
  translated: (how: string) => buildDetail('translated', { how }),
  accountChanged: (maskedPhone: string) => buildDetail('accountChanged', { phone: maskedPhone }),
  check: (
    step: -5 | -4 | -3 | -2 | -1,
    result: string,
    device: string | null,
    camera: { faces: number; id_similarity: number | null } | null = null,
  ) => buildDetail('check', { step, result, device, ...(camera ?? {}) }),
  stepSkipped: (step: -5 | -4 | -3 | -2 | -1) => buildDetail('stepSkipped', { step }),
  riskPicture: (recordId: number) => buildDetail('riskPicture', { record: recordId }),
  recording: (ms: number) => buildDetail('recording', { ms: Math.round(ms) }),
  capturedOffline: () => buildDetail('capturedOffline', {}),
  secondScreen: (p: DetailParams<'secondScreen'>) => buildDetail('secondScreen', p),
  virtualMachine: (p: DetailParams<'virtualMachine'>) => buildDetail('virtualMachine', p),
} satisfies Record<DetailKey, (...args: never[]) => string>;

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}

/** The mark of a picture taken offline written before the vocabulary had `capturedOffline`. */
const LEGACY_OFFLINE = 'offline';

/** True when a stored detail marks a picture taken offline, in either form. */
export function isCapturedOffline(text: string): boolean {
  return describeDetail(text)?.key === 'capturedOffline';
}

/** The check records written before the vocabulary: `{"step":-5,"result":"passed","device":…}` without a kind. */
const LegacyCheck = z.object({ step: Step, result: z.string(), device: z.string().nullable().optional() });

/**
 * A stored detail taken apart, or null when it is not in the vocabulary (free text written before it, or by
 * hand): the caller then shows the text as it is.
 */
export function describeDetail(text: string): DescribedDetail | null {
  // Pictures taken offline were marked with the bare word before the vocabulary named them.
  if (text === LEGACY_OFFLINE) return { key: 'capturedOffline', params: {} };
  if (!text.startsWith('{')) return null;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof json !== 'object' || json === null) return null;
  const { d, ...rest } = json as Record<string, unknown>;
  if (d === undefined) {
    const legacy = LegacyCheck.safeParse(rest);
    return legacy.success
      ? {
          key: 'check',
          params: { step: legacy.data.step, result: legacy.data.result, device: legacy.data.device ?? null },
        }
      : null;
  }
  if (typeof d !== 'string' || !Object.hasOwn(DETAIL_PARAMS, d)) return null;
  const key = d as DetailKey;
  const parsed = DETAIL_PARAMS[key].safeParse(rest);
  return parsed.success ? ({ key, params: parsed.data } as DescribedDetail) : null;
}

/** The key of a monitor step by id ('camera' for -5), for texts that name the step. */
export function monitorStepKey(step: number): (typeof MONITOR_STEPS)[number]['key'] | null {
  return MONITOR_STEPS.find((s) => s.id === step)?.key ?? null;
}
