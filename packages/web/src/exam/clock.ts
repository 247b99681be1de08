/**
 * The server's clock in the browser. It is read once from /monitor/time-table and then carried
 * forward on the monotonic performance clock, so a browser whose wall clock is hours off (or is
 * changed during the exam) still counts down the server's time.
 */
import { CLOCK_TICK_MS, userCalls } from '@examhall/contract';
import { useEffect, useState } from 'react';
import { request } from '../api/client.js';

/** A server time reading tied to the monotonic clock. */
export interface ServerClock {
  /** Server epoch ms at `at`. */
  serverMs: number;
  /** performance.now() when serverMs held. */
  at: number;
}

/**
 * The alignment from one reading: the server stamped `timestamp` somewhere during the round
 * trip from `sentAt` to `receivedAt`, most likely half-way, so at `receivedAt` it was half a
 * round trip later.
 */
export function alignFrom(timestamp: number, sentAt: number, receivedAt: number): ServerClock {
  return { serverMs: timestamp + (receivedAt - sentAt) / 2, at: receivedAt };
}

/** Server epoch ms at monotonic time `monotonicNow`. */
export function serverNowOf(clock: ServerClock, monotonicNow: number): number {
  return clock.serverMs + (monotonicNow - clock.at);
}

let current: ServerClock | null = null;

/** Server epoch ms now: the aligned clock, or the browser's own until the first alignment. */
export function serverNow(): number {
  // Whole milliseconds: the API takes times as integers.
  return current ? Math.round(serverNowOf(current, performance.now())) : Date.now();
}

/** True once the clock has been aligned. */
export function clockAligned(): boolean {
  return current !== null;
}

/** Aligns the clock with the server (once per page load is enough; later calls refresh it). */
export async function alignClock(): Promise<ServerClock> {
  const sentAt = performance.now();
  const data = await request(userCalls.timeTable);
  current = alignFrom(data.timestamp, sentAt, performance.now());
  return current;
}

/** Aligns with a reading the caller already has (e.g. start-exam's server_time), if none exists yet. */
export function alignIfUnset(serverMs: number): void {
  if (!current) current = { serverMs, at: performance.now() };
}

/** Milliseconds left until `endTime` on the server's clock, re-read every CLOCK_TICK_MS. */
export function useRemaining(endTime: number | null): number | null {
  const [now, setNow] = useState(() => serverNow());
  useEffect(() => {
    const timer = setInterval(() => setNow(serverNow()), CLOCK_TICK_MS);
    return () => clearInterval(timer);
  }, []);
  return endTime === null ? null : Math.max(0, endTime - now);
}

/** 'HH:MM:SS' (or 'MM:SS' under an hour) for a duration. */
export function formatDuration(ms: number): string {
  const total = Math.ceil(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const two = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${two(h)}:${two(m)}:${two(s)}` : `${two(m)}:${two(s)}`;
}

/** Minutes-left marks at which the timer speaks to screen readers. */
export const TIMER_MILESTONES_MIN = [30, 15, 5, 1] as const;

/** The milestone just crossed when the remaining time went from `before` to `after` ms, or null. */
export function crossedMilestone(before: number | null, after: number): number | null {
  if (before === null) return null;
  for (const min of TIMER_MILESTONES_MIN) {
    const mark = min * 60_000;
    if (before > mark && after <= mark) return min;
  }
  return null;
}

/** Aligns with an offset (server minus browser wall clock) kept from an earlier alignment, when the server cannot be asked. */
export function alignWithOffset(offset: number): void {
  current = { serverMs: Date.now() + offset, at: performance.now() };
}
