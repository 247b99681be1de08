/**
 * The start wave as the candidate's page lives it: a press on "start" before the window opens waits for the
 * opening, and a press the server paces (`admission_queue`) waits for its turn; either way the page presses
 * again by itself at the right moment. The rule is stated once here; the clock and the randomness are given.
 */
import { useEffect, useState } from 'react';
import { isApiError } from '../api/client.js';

/** Presses at the opening are spread over this much, so that thousands do not arrive in the same millisecond. */
export const OPENING_SPREAD_MS = 3000;
/** A queue's turn is asked for a little after it comes, spread over this much. */
export const TURN_SPREAD_MS = 250;

/** What the page waits for before pressing start again, and when it presses (server time, epoch ms). */
export type StartWait = { kind: 'opening'; opensAt: number; at: number } | { kind: 'queue'; place: number; at: number };

/**
 * What a refused start means for the page: the opening or a turn to wait for, or null when it is another failure
 * (shown as it is). `random` answers [0, 1).
 */
export function startWaitOf(error: unknown, now: number, random: () => number): StartWait | null {
  if (!isApiError(error) || !error.data) return null;
  const data = error.data;
  if (error.code === 'exam_not_open' && typeof data.opens_at === 'number' && data.opens_at > now) {
    return { kind: 'opening', opensAt: data.opens_at, at: data.opens_at + Math.floor(random() * OPENING_SPREAD_MS) };
  }
  if (error.code === 'admission_queue' && typeof data.retry_after_ms === 'number') {
    const place = typeof data.place === 'number' ? data.place : 1;
    return { kind: 'queue', place, at: now + data.retry_after_ms + Math.floor(random() * TURN_SPREAD_MS) };
  }
  return null;
}

/**
 * Follows a start mutation's failures: answers what the page waits for (kept while the press it schedules is
 * under way) and presses again when the wait is over. Cleared by any other outcome.
 */
export function useStartWave(
  start: { isError: boolean; isSuccess: boolean; error: unknown; mutate: () => void },
  clock: () => number,
): StartWait | null {
  const [wait, setWait] = useState<StartWait | null>(null);
  const { isError, isSuccess, error, mutate } = start;
  useEffect(() => {
    if (isSuccess) setWait(null);
    if (!isError) return;
    const next = startWaitOf(error, clock(), Math.random);
    setWait(next);
    if (!next) return;
    const timer = setTimeout(() => mutate(), Math.max(0, next.at - clock()));
    return () => clearTimeout(timer);
  }, [isError, isSuccess, error, mutate, clock]);
  return wait;
}
