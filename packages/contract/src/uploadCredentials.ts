/**
 * When upload credentials count as spent: from a small margin before their Expiration, so an upload never starts
 * with credentials that run out on its way. The candidate's page and the exam bench both follow it.
 */
import type { StsData } from './schemas/monitor.js';

/** Credentials with less than this left before Expiration are fetched again. */
export const STS_EXPIRY_MARGIN_MS = 30_000;

/** True when the credentials are past Expiration (less the margin) at `now`, or their Expiration is unreadable. */
export function stsExpired(sts: Pick<StsData, 'Expiration'>, now: number): boolean {
  const expires = Date.parse(sts.Expiration);
  return !Number.isFinite(expires) || expires - STS_EXPIRY_MARGIN_MS <= now;
}
