/**
 * The one place that says when a candidate may sit an exam and for how long: their effective window, their
 * effective length, and the end of an attempt. Entering the exam, the exam list, live changes and the
 * accommodations all read these rules.
 */
import { ExamMode } from '@examhall/contract';
import type { Span, TimingInvitation } from '../repositories/exams.js';

export type { Span, TimingInvitation };

/** A window and where it comes from. */
export interface EffectiveWindow extends Span {
  source: 'personal' | 'slot' | 'exam';
}

/**
 * The candidate's window: the personal window when staff set one, else their slot, else the exam's window.
 */
export function effectiveWindow(
  exam: Span,
  inv: Pick<TimingInvitation, 'window_start' | 'window_end'>,
  slot: Span | null,
): EffectiveWindow {
  if (inv.window_start !== null && inv.window_end !== null) {
    return { start_at: Number(inv.window_start), end_at: Number(inv.window_end), source: 'personal' };
  }
  if (slot) return { start_at: Number(slot.start_at), end_at: Number(slot.end_at), source: 'slot' };
  return { start_at: exam.start_at, end_at: exam.end_at, source: 'exam' };
}

/** Extra minutes of an invitation: its minutes, or its percentage of the exam's length rounded up. */
export function extraMinutesOf(inv: TimingInvitation, timeMinutes: number): number {
  if (inv.extra_mode === 'percent') return Math.ceil((inv.extra_percent * timeMinutes) / 100);
  return inv.extra_minutes;
}

/** The candidate's length in minutes: the exam's plus their extra time. */
export function effectiveLength(inv: TimingInvitation, timeMinutes: number): number {
  return timeMinutes + extraMinutesOf(inv, timeMinutes);
}

/**
 * When an attempt started at `startedAt` ends: start plus the candidate's length, never later than the end of
 * their window plus their extra time (extra time may carry an attempt past the close). A long-time exam runs
 * until the window's end plus the extra time, however long ago it started.
 */
export function attemptEnd(
  mode: number,
  timeMinutes: number,
  inv: TimingInvitation,
  window: Span,
  startedAt: number,
): number {
  const extra = extraMinutesOf(inv, timeMinutes) * 60_000;
  if (mode === ExamMode.longTime) return window.end_at + extra;
  return Math.min(startedAt + timeMinutes * 60_000 + extra, window.end_at + extra);
}
