import { ExamPhase, type EvidenceKind } from '@examhall/contract';
import type { AttemptRow } from '../../repositories/attempts.js';
import type { StorageQuota } from '../../repositories/storageUsage.js';
import type { ExamBundle } from '../catalog.js';

/** How long upload credentials live. */
export const STS_TTL_SECONDS = 15 * 60;
/**
 * How long after an attempt ends captures, pertinent moments and recordings taken before the end are still
 * accepted: pictures taken offline are uploaded on reconnect, and nothing the candidate's page holds is lost.
 */
export const LATE_EVIDENCE_MS = 15 * 60_000;
/** The phone counts as connected while its last report is this recent. */
export const PHONE_FRESH_MS = 10_000;
/** How far in the future a client's trigger time may be (clock drift). */
export const FUTURE_SKEW_MS = 60_000;
/** Detail of a capture taken offline (counted into offlineImages). */
export const OFFLINE_DETAIL = 'offline';
/** Kinds that may still arrive after the end when taken before it. */
export const LATE_KINDS: ReadonlySet<EvidenceKind> = new Set(['frame', 'screen', 'phone', 'pertinent', 'byte']);

/** Bytes budgeted per object: a 1280x720 JPEG frame is 100 to 300 KB, a full-screen capture up to about 1 MB. */
const QUOTA_BYTES_PER_OBJECT = 1024 * 1024;
/** Minutes of device checks before the exam that the quota allows for. */
const QUOTA_CHECK_MINUTES = 30;
/** How many times what the settings lead us to expect an attempt may upload (retries, reloads, a second tab). */
const QUOTA_MARGIN = 2;
/** Objects of no interval: the first picture, the signature and a few more. */
const QUOTA_FIXED_OBJECTS = 20;

/**
 * An attempt's storage quota, derived from its exam's capture settings: over the exam's time (its own end when
 * it has one, extra time and long windows included) plus the device checks and the late-upload grace, one
 * picture per capture interval from each open stream (camera, screen, phone) and as many pertinent moments,
 * plus a microphone recording a minute (the page's throttle), all times QUOTA_MARGIN; capped by the ceiling.
 */
export function uploadQuota(
  settings: Pick<
    ExamBundle['settings'],
    'capture_interval' | 'is_close_camera' | 'is_close_screen' | 'is_close_phone' | 'is_close_microphone'
  >,
  timeMinutes: number,
  attempt: Pick<AttemptRow, 'started_at' | 'end_at'>,
  ceiling: StorageQuota,
): StorageQuota {
  const own =
    attempt.started_at !== null && attempt.end_at !== null
      ? (Number(attempt.end_at) - Number(attempt.started_at)) / 60_000
      : 0;
  const minutes = Math.max(timeMinutes, own) + QUOTA_CHECK_MINUTES + LATE_EVIDENCE_MS / 60_000;
  const shots = Math.ceil((minutes * 60) / Math.max(1, settings.capture_interval));
  const streams = [settings.is_close_camera, settings.is_close_screen, settings.is_close_phone].filter(
    (closed) => closed !== 1,
  ).length;
  const recordings = settings.is_close_microphone === 1 ? 0 : Math.ceil(minutes);
  const objects = QUOTA_MARGIN * (shots * (streams + 1) + recordings + QUOTA_FIXED_OBJECTS);
  return {
    maxObjects: Math.min(ceiling.maxObjects, objects),
    maxBytes: Math.min(ceiling.maxBytes, objects * QUOTA_BYTES_PER_OBJECT),
  };
}

/** When an attempt ended (epoch ms), or null while it runs; `now` for a finished attempt that holds neither time. */
export function endedAt(a: AttemptRow, now: number): number | null {
  if (a.phase !== ExamPhase.submit) return null;
  // A timed-out attempt may be finished (finished_at) well after its time was up (end_at): the earlier counts.
  const ends = [a.finished_at, a.end_at].filter((v) => v !== null).map(Number);
  return ends.length > 0 ? Math.min(...ends) : now;
}

/**
 * Whether evidence of `kind` taken at `triggerTime` may still be written to the attempt at `now`: always while it
 * runs; after its end only captures, pertinent moments and recordings taken before the end, within
 * LATE_EVIDENCE_MS (device checks never).
 */
export function acceptsEvidence(
  a: AttemptRow,
  kind: EvidenceKind | 'check',
  triggerTime: number,
  now: number,
): boolean {
  const ended = endedAt(a, now);
  if (ended === null) return true;
  return (
    kind !== 'check' &&
    LATE_KINDS.has(kind) &&
    triggerTime <= ended &&
    triggerTime >= Number(a.created_at) &&
    now <= ended + LATE_EVIDENCE_MS
  );
}

/** 1 while the phone's last report (epoch ms) is fresh at `now`. */
export function phoneStatus(phoneSeenAt: number | null, now: number): 0 | 1 {
  return phoneSeenAt !== null && now - phoneSeenAt <= PHONE_FRESH_MS ? 1 : 0;
}
