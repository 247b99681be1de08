/**
 * Latency figures of a long run kept in constant memory: a log-scale histogram per call (2 % wide buckets from
 * 0.05 ms to about 20 minutes), so a run of millions of requests keeps a few kilobytes per call, and a count of
 * requests per second of the run for the chart.
 */

/** Ratio between the upper and lower bound of a bucket. */
const GROWTH = 1.02;
/** Upper bound of the first bucket, ms. */
const FLOOR_MS = 0.05;
const BUCKETS = Math.ceil(Math.log(1_200_000 / FLOOR_MS) / Math.log(GROWTH)) + 1;

/** One call's latencies and errors. */
export class CallStats {
  readonly buckets = new Uint32Array(BUCKETS);
  count = 0;
  errors = 0;
  maxMs = 0;
  /** The first few error texts, to print what went wrong. */
  readonly samples: string[] = [];

  add(ms: number): void {
    const i = ms <= FLOOR_MS ? 0 : Math.min(BUCKETS - 1, Math.ceil(Math.log(ms / FLOOR_MS) / Math.log(GROWTH)));
    this.buckets[i]! += 1;
    this.count += 1;
    if (ms > this.maxMs) this.maxMs = ms;
  }

  fail(why: string): void {
    this.errors += 1;
    if (this.samples.length < 3) this.samples.push(why.slice(0, 200));
  }

  /** The latency under which a share `p` (0..1) of the requests fell, ms (the bucket's upper bound, at most the max). */
  percentile(p: number): number {
    if (this.count === 0) return 0;
    const rank = Math.max(1, Math.ceil(this.count * p));
    let seen = 0;
    for (let i = 0; i < BUCKETS; i++) {
      seen += this.buckets[i]!;
      if (seen >= rank) return Math.min(this.maxMs, FLOOR_MS * GROWTH ** i);
    }
    return this.maxMs;
  }
}

/** A request slower than `SLOW_MS`: its call, when it was sent (performance.now()) and how long it took. */
export interface SlowCall {
  call: string;
  sentAt: number;
  ms: number;
}

/** Requests at least this slow are kept one by one (at most `SLOW_KEPT`), to tell what they met. */
export const SLOW_MS = 100;
const SLOW_KEPT = 20_000;

/** Per-call figures, the requests of each second of the run, and the slow ones. */
export class RunStats {
  readonly calls = new Map<string, CallStats>();
  /** Requests answered in each second since `started`. */
  readonly perSecond: number[] = [];
  readonly started = performance.now();
  readonly slow: SlowCall[] = [];

  of(call: string): CallStats {
    let s = this.calls.get(call);
    if (!s) this.calls.set(call, (s = new CallStats()));
    return s;
  }

  /** Records one answered request. */
  done(call: string, ms: number): void {
    this.of(call).add(ms);
    const now = performance.now();
    if (ms >= SLOW_MS && this.slow.length < SLOW_KEPT) this.slow.push({ call, sentAt: now - ms, ms });
    const second = Math.floor((now - this.started) / 1000);
    while (this.perSecond.length <= second) this.perSecond.push(0);
    this.perSecond[second]! += 1;
  }
}

/** Milliseconds to one decimal place. */
export const round1 = (ms: number) => Math.round(ms * 10) / 10;
