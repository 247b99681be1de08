import type { Redis } from 'ioredis';

/** The outcome of counting one hit. */
export interface HitResult {
  /** True while the count is within the limit. */
  allowed: boolean;
  /** Hits in the current window, this one included. */
  count: number;
  /** When the window ends (epoch ms). */
  resetAt: number;
}

/** Fixed-window counters shared by every API process (Redis) or kept in this process (embedded default). */
export interface RateLimiter {
  /** Counts a hit on `key` and says whether it stays within `limit` per `windowMs`. */
  hit(key: string, limit: number, windowMs: number): Promise<HitResult>;
  /** Hits counted on `key` in its current window, without counting one. */
  count(key: string): Promise<number>;
  /** Forgets a key (e.g. after a successful login). */
  reset(key: string): Promise<void>;
  /** Releases connections. */
  close(): Promise<void>;
}

/** In-process counters for the one-process default. */
export class MemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  constructor(private readonly clock: () => number = Date.now) {}

  async hit(key: string, limit: number, windowMs: number): Promise<HitResult> {
    const now = this.clock();
    let w = this.windows.get(key);
    if (!w || w.resetAt <= now) {
      w = { count: 0, resetAt: now + windowMs };
      this.windows.set(key, w);
      this.sweep(now);
    }
    w.count += 1;
    return { allowed: w.count <= limit, count: w.count, resetAt: w.resetAt };
  }

  async count(key: string): Promise<number> {
    const w = this.windows.get(key);
    return w && w.resetAt > this.clock() ? w.count : 0;
  }

  async reset(key: string): Promise<void> {
    this.windows.delete(key);
  }

  async close(): Promise<void> {
    this.windows.clear();
  }

  // Drops expired windows now and then so the map does not grow without bound.
  private sweep(now: number): void {
    if (this.windows.size < 10_000) return;
    for (const [k, w] of this.windows) if (w.resetAt <= now) this.windows.delete(k);
  }
}

/** Counters in Redis: INCR plus PEXPIRE on the first hit, atomically in one script. */
export class RedisRateLimiter implements RateLimiter {
  private static readonly SCRIPT = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {n, redis.call('PTTL', KEYS[1])}`;

  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'examhall:rl:',
  ) {}

  async hit(key: string, limit: number, windowMs: number): Promise<HitResult> {
    const [count, ttl] = (await this.redis.eval(RedisRateLimiter.SCRIPT, 1, this.prefix + key, windowMs)) as [
      number,
      number,
    ];
    return { allowed: count <= limit, count, resetAt: Date.now() + Math.max(ttl, 0) };
  }

  async count(key: string): Promise<number> {
    return Number((await this.redis.get(this.prefix + key)) ?? 0);
  }

  async reset(key: string): Promise<void> {
    await this.redis.del(this.prefix + key);
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}
