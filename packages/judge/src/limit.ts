import { availableParallelism } from 'node:os';

/** A counting semaphore: at most `size` holders at once, served in arrival order. */
export class Semaphore {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly size: number) {}

  /** Runs fn once a place is free and frees it afterwards, whatever fn does. */
  async use<T>(fn: () => Promise<T>): Promise<T> {
    if (this.active >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active++;
    try {
      return await fn();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }
}

/** Boxes run at once in this process: one per core unless EXAMHALL_JUDGE_CONCURRENCY says otherwise. */
export const BOXES = new Semaphore(Number(process.env.EXAMHALL_JUDGE_CONCURRENCY) || availableParallelism());
