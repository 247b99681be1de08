import { randomUUID } from 'node:crypto';
import type { RateLimiter } from '../ratelimit/limiter.js';

/** The queue of login codes' turns at the provider, one for the cluster. */
const LOGIN_QUEUE = 'sms:login';
/** Login codes counted per second of their turn (the second's number follows), for the texts' budget. */
const LOGIN_SECOND = 'sms:login-second:';
/** How long turns and per-second counts are kept past the longest wait. */
const KEPT_MS = 60_000;

/** The provider's budget and how login codes share it. */
export interface SmsPacing {
  /** Texts a second the provider takes from us, across the cluster (SMS_RATE). */
  rate: number;
  /** Login codes a second at most, within `rate` (SMS_LOGIN_RATE); 0 sends each at once. */
  loginRate: number;
  /** The longest a login code may wait for its turn; past it the request is refused. */
  loginMaxWaitMs: number;
}

/**
 * The SMS provider's budget shared by every process through the limiter. Login codes take evenly paced turns
 * (`loginRate` a second) from one queue, and each turn is counted under its second; invitations and reminders
 * get what those codes leave of `rate` in the seconds they are sent in, so a candidate waiting at the login page
 * goes before a text that can wait a minute.
 */
export class SmsPacer {
  constructor(
    private readonly limiter: RateLimiter,
    private readonly pacing: SmsPacing,
  ) {}

  /** When a new login code goes to the provider (epoch ms, `now` or later), or null when it would wait too long. */
  async loginTurn(now: number): Promise<number | null> {
    const { loginRate, loginMaxWaitMs } = this.pacing;
    const kept = loginMaxWaitMs + KEPT_MS;
    const at =
      loginRate > 0
        ? await this.limiter.turn(LOGIN_QUEUE, randomUUID(), 1000 / loginRate, kept, now, now + loginMaxWaitMs)
        : now;
    if (at - now > loginMaxWaitMs) return null;
    await this.limiter.hit(LOGIN_SECOND + Math.floor(at / 1000), Number.MAX_SAFE_INTEGER, kept);
    return Math.ceil(at);
  }

  /** Texts other than login codes that may go now for the next `periodMs`: the rate less login codes due then. */
  async textBudget(now: number, periodMs: number): Promise<number> {
    let logins = 0;
    for (let second = Math.floor(now / 1000); second * 1000 < now + periodMs; second++)
      logins += await this.limiter.count(LOGIN_SECOND + second);
    return Math.max(0, Math.floor((this.pacing.rate * periodMs) / 1000) - logins);
  }
}
