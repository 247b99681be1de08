import { createHash } from 'node:crypto';
import { fail } from '../errors.js';
import { HEARTBEAT_MS } from '../eventStream.js';
import type { Lease, RateLimiter } from './limiter.js';

/** An open stream's place lapses this long after its last renewal (streams renew at every heartbeat). */
export const STREAM_LEASE_MS = 3 * HEARTBEAT_MS;

/**
 * Limits on event streams open at once, per token and per client address, held as leases in the limiter
 * (so shared by every API process through Redis when it is configured). A stream renews its lease while it
 * is open and releases it when it closes; one whose process died lapses on its own.
 */
export class StreamAdmission {
  constructor(
    private readonly limiter: RateLimiter,
    private readonly limits: { perToken: number; perIp: number },
  ) {}

  /** Takes a place for one more stream of `token` from `ip`; throws `rate_limited` when either is at its limit. */
  async admit(ip: string, token: string): Promise<Lease> {
    // Keys name a hash of the token: a token is never written anywhere in the clear.
    const tokenKey = createHash('sha256').update(token).digest('hex').slice(0, 32);
    const lease = await this.limiter.lease(
      [
        { key: `sse:token:${tokenKey}`, limit: this.limits.perToken },
        { key: `sse:ip:${ip}`, limit: this.limits.perIp },
      ],
      STREAM_LEASE_MS,
    );
    if (!lease) throw fail('rate_limited', 'too many event streams open; close one first');
    return lease;
  }
}
