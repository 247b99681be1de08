import { ExamPhase, type EvidenceKind } from '@examhall/contract';
import type { AttemptRow } from '../../repositories/attempts.js';
import type { StorageQuota } from '../../repositories/storageUsage.js';
import { attemptBudget, type BudgetSettings } from '../../storage/budget.js';

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
/** Kinds that may still arrive after the end when taken before it. */
export const LATE_KINDS: ReadonlySet<EvidenceKind> = new Set(['frame', 'screen', 'phone', 'pertinent', 'byte']);

/**
 * An attempt's storage quota: the budget of its exam's capture settings (storage/budget.ts) over the exam's time, or
 * the attempt's own when it is longer (extra time, a long window); capped by the configured ceiling.
 */
export function uploadQuota(
  settings: BudgetSettings,
  timeMinutes: number,
  attempt: Pick<AttemptRow, 'started_at' | 'end_at'>,
  ceiling: StorageQuota,
): StorageQuota {
  const own =
    attempt.started_at !== null && attempt.end_at !== null
      ? (Number(attempt.end_at) - Number(attempt.started_at)) / 60_000
      : 0;
  const budget = attemptBudget(settings, Math.max(timeMinutes, own));
  return {
    maxObjects: Math.min(ceiling.maxObjects, budget.maxObjects),
    maxBytes: Math.min(ceiling.maxBytes, budget.maxBytes),
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
