/**
 * Upload credentials: kept per exam and fetched again when missing or spent (the contract's stsExpired: past
 * their Expiration, less a margin, so an upload never starts with credentials that run out on its way).
 */
import { type StsData, monitorCalls, stsExpired } from '@examhall/contract';
import { request } from '../api/client.js';
import { serverNow } from '../exam/clock.js';

/** A cache of credentials around one fetch function. */
export class CredentialCache {
  private current: StsData | null = null;
  private pending: Promise<StsData> | null = null;

  constructor(
    private readonly fetchToken: () => Promise<StsData>,
    /**
     * The server's time (epoch ms), for expiry and for signing: a browser clock hours off would
     * otherwise see fresh credentials as expired and sign requests storage refuses as skewed.
     */
    readonly now: () => number = Date.now,
  ) {}

  /** Valid credentials: the cached ones, or fresh ones when missing or (nearly) expired. */
  async get(): Promise<StsData> {
    if (this.current && !stsExpired(this.current, this.now())) return this.current;
    // Concurrent uploads share one fetch.
    this.pending ??= this.fetchToken().finally(() => {
      this.pending = null;
    });
    this.current = await this.pending;
    return this.current;
  }

  /** Forgets the cached credentials (after storage refused them). */
  invalidate(): void {
    this.current = null;
  }
}

const byExam = new Map<number, CredentialCache>();

/** The candidate's credentials for the attempt at `examId`. */
export function examCredentials(examId: number): CredentialCache {
  let cache = byExam.get(examId);
  if (!cache) {
    cache = new CredentialCache(() => request(monitorCalls.stsToken, { query: { exam_id: examId } }), serverNow);
    byExam.set(examId, cache);
  }
  return cache;
}

let phoneCache: CredentialCache | null = null;

/** The phone page's credentials (its token is the phone token); `now` is the phone's server-aligned clock. */
export function phoneCredentials(now: () => number = Date.now): CredentialCache {
  phoneCache ??= new CredentialCache(() => request(monitorCalls.phoneStsToken), now);
  return phoneCache;
}
