import { Redis } from 'ioredis';
import type { ServiceLog } from '../log.js';
import type { PeriodicScheduler, PeriodicTask } from './types.js';

/**
 * Fires each task once per period slot (slot = floor(now / period)): timers wake at slot boundaries, and
 * `acquire` decides whether this process runs the slot. A run still going when the next slot comes is not
 * started twice in this process.
 */
abstract class SlotScheduler implements PeriodicScheduler {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly running = new Set<Promise<void>>();
  private readonly busy = new Set<string>();
  private stopped = false;

  constructor(
    protected readonly clock: () => number = Date.now,
    private readonly log?: ServiceLog,
  ) {}

  /** True when this process runs `task` for `slot`. */
  protected abstract acquire(task: PeriodicTask, slot: number): Promise<boolean>;

  start(tasks: readonly PeriodicTask[]): void {
    this.stopped = false;
    for (const task of tasks) {
      if (task.periodMs > 0) this.arm(task);
    }
  }

  async close(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    await Promise.all([...this.running]);
  }

  private arm(task: PeriodicTask): void {
    if (this.stopped) return;
    const now = this.clock();
    const slot = Math.floor(now / task.periodMs) + 1;
    const timer = setTimeout(() => this.fire(task, slot), slot * task.periodMs - now);
    timer.unref();
    this.timers.set(task.name, timer);
  }

  private fire(task: PeriodicTask, slot: number): void {
    this.arm(task);
    if (this.busy.has(task.name)) return;
    this.busy.add(task.name);
    const run = (async () => {
      try {
        if (await this.acquire(task, slot)) await task.run();
      } catch (err) {
        this.log?.error({ err, task: task.name }, 'periodic task failed');
      } finally {
        this.busy.delete(task.name);
      }
    })();
    this.running.add(run);
    void run.finally(() => this.running.delete(run));
  }
}

/** One process (the embedded default): every slot runs here. */
export class LocalScheduler extends SlotScheduler {
  protected acquire(): Promise<boolean> {
    return Promise.resolve(true);
  }
}

/**
 * Several API processes on Redis: the first process to set the slot's key (SET NX, expiring after two
 * periods) runs the slot; the others skip it. So a sweep runs once per period across the cluster.
 */
export class RedisScheduler extends SlotScheduler {
  private readonly redis: Redis;

  constructor(
    redisUrl: string,
    private readonly prefix = 'examhall:periodic:',
    clock?: () => number,
    log?: ServiceLog,
  ) {
    super(clock, log);
    this.redis = new Redis(redisUrl, { maxRetriesPerRequest: 2 });
    this.redis.on('error', () => undefined);
  }

  protected async acquire(task: PeriodicTask, slot: number): Promise<boolean> {
    const won = await this.redis.set(`${this.prefix}${task.name}:${slot}`, '1', 'PX', task.periodMs * 2, 'NX');
    return won === 'OK';
  }

  override async close(): Promise<void> {
    await super.close();
    await this.redis.quit().catch(() => undefined);
  }
}
