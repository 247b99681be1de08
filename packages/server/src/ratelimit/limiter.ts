import { randomUUID } from 'node:crypto';
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

/** One key of a lease and how many places it has. */
export interface LeaseKey {
  key: string;
  limit: number;
}

/** Places held under some keys (e.g. an open event stream), until released or, unrenewed, until they expire. */
export interface Lease {
  /** Keeps the places for another `ttlMs`. */
  renew(): Promise<void>;
  /** Gives them back; idempotent. */
  release(): Promise<void>;
}

/**
 * Fixed-window counters, and leases on a limited number of places held at once, shared by every API process
 * (Redis) or kept in this process (embedded default).
 */
export interface RateLimiter {
  /** Counts a hit on `key` and says whether it stays within `limit` per `windowMs`. */
  hit(key: string, limit: number, windowMs: number): Promise<HitResult>;
  /** Hits counted on `key` in its current window, without counting one. */
  count(key: string): Promise<number>;
  /** Forgets a key (e.g. after a successful login). */
  reset(key: string): Promise<void>;
  /**
   * Takes one place under every key, all or none: null when a key already holds its `limit` places. A place
   * lapses `ttlMs` after it was taken or last renewed, so a process that dies does not hold it for ever.
   */
  lease(keys: readonly LeaseKey[], ttlMs: number): Promise<Lease | null>;
  /**
   * A turn in an evenly paced queue (`queue`): when `member` may go (epoch ms). A member's first call takes the
   * next turn, `intervalMs` after the last one given and never before `now`; later calls answer the same turn,
   * so a member keeps their place while they wait. Turns are forgotten `ttlMs` after they were given. With
   * `latest`, a turn later than it is answered but not given (the queue stays as it was), so callers who will
   * not wait that long do not push back those who will.
   */
  turn(queue: string, member: string, intervalMs: number, ttlMs: number, now: number, latest?: number): Promise<number>;
  /** Releases connections. */
  close(): Promise<void>;
}

/** In-process counters for the one-process default. */
export class MemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  /** Per key: lease id -> when it lapses. */
  private readonly places = new Map<string, Map<string, number>>();
  /** Queues' last turns and members' turns, with when each is forgotten. */
  private readonly turns = new Map<string, { at: number; until: number }>();

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

  async lease(keys: readonly LeaseKey[], ttlMs: number): Promise<Lease | null> {
    const now = this.clock();
    const held = keys.map(({ key }) => {
      let m = this.places.get(key);
      if (!m) this.places.set(key, (m = new Map()));
      for (const [id, until] of m) if (until <= now) m.delete(id);
      return m;
    });
    if (keys.some(({ limit }, i) => held[i]!.size >= limit)) return null;
    const id = randomUUID();
    for (const m of held) m.set(id, now + ttlMs);
    return {
      renew: async () => {
        for (const m of held) if (m.has(id)) m.set(id, this.clock() + ttlMs);
      },
      release: async () => {
        keys.forEach(({ key }, i) => {
          held[i]!.delete(id);
          if (held[i]!.size === 0 && this.places.get(key) === held[i]) this.places.delete(key);
        });
      },
    };
  }

  async turn(
    queue: string,
    member: string,
    intervalMs: number,
    ttlMs: number,
    now: number,
    latest = Infinity,
  ): Promise<number> {
    const key = `${queue}:${member}`;
    const mine = this.turns.get(key);
    if (mine && mine.until > now) return mine.at;
    const last = this.turns.get(queue);
    const at = Math.max(now, last && last.until > now ? last.at + intervalMs : now);
    if (at > latest) return at;
    this.turns.set(queue, { at, until: now + ttlMs });
    this.turns.set(key, { at, until: now + ttlMs });
    if (this.turns.size > 10_000) for (const [k, v] of this.turns) if (v.until <= now) this.turns.delete(k);
    return at;
  }

  async close(): Promise<void> {
    this.windows.clear();
    this.places.clear();
    this.turns.clear();
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

  /**
   * A sorted set per key, lease ids scored by when they lapse: lapsed ones are dropped, every key checked,
   * then the id added to all, in one script so that processes cannot overfill a key between check and add.
   */
  private static readonly LEASE = `
local now = tonumber(ARGV[1])
for i, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
  if redis.call('ZCARD', key) >= tonumber(ARGV[3 + i]) then return 0 end
end
for i, key in ipairs(KEYS) do
  redis.call('ZADD', key, now + tonumber(ARGV[2]), ARGV[3])
  redis.call('PEXPIRE', key, tonumber(ARGV[2]))
end
return 1`;

  private static readonly RENEW = `
for i, key in ipairs(KEYS) do
  if redis.call('ZADD', key, 'XX', 'CH', tonumber(ARGV[1]), ARGV[3]) then redis.call('PEXPIRE', key, tonumber(ARGV[2])) end
end
return 1`;

  async lease(keys: readonly LeaseKey[], ttlMs: number): Promise<Lease | null> {
    const id = randomUUID();
    const names = keys.map((k) => `${this.prefix}lease:${k.key}`);
    const limits = keys.map((k) => k.limit);
    const ok = await this.redis.eval(RedisRateLimiter.LEASE, names.length, ...names, Date.now(), ttlMs, id, ...limits);
    if (ok !== 1) return null;
    return {
      renew: async () => {
        await this.redis.eval(RedisRateLimiter.RENEW, names.length, ...names, Date.now() + ttlMs, ttlMs, id);
      },
      release: async () => {
        for (const name of names) await this.redis.zrem(name, id);
      },
    };
  }

  /** The member's turn if it has one, else the queue's next, stored for both unless past the latest, in one script. */
  private static readonly TURN = `
local mine = redis.call('GET', KEYS[2])
if mine then return mine end
local now = tonumber(ARGV[1])
local last = redis.call('GET', KEYS[1])
local at = now
if last then at = math.max(now, tonumber(last) + tonumber(ARGV[2])) end
if ARGV[4] ~= '' and at > tonumber(ARGV[4]) then return tostring(at) end
redis.call('SET', KEYS[1], at, 'PX', ARGV[3])
redis.call('SET', KEYS[2], at, 'PX', ARGV[3])
return tostring(at)`;

  async turn(
    queue: string,
    member: string,
    intervalMs: number,
    ttlMs: number,
    now: number,
    latest?: number,
  ): Promise<number> {
    const at = await this.redis.eval(
      RedisRateLimiter.TURN,
      2,
      `${this.prefix}turn:${queue}`,
      `${this.prefix}turn:${queue}:${member}`,
      now,
      intervalMs,
      Math.ceil(ttlMs),
      latest === undefined || !Number.isFinite(latest) ? '' : Math.floor(latest),
    );
    return Number(at);
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}
