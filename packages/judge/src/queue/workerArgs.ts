/**
 * The judge worker's command-line options, read the same way by `examhall-judge worker` and `examhall judge-worker`:
 * --concurrency N, --queue NAME, --lock-duration MS, --stalled-interval MS (and --redis URL where the command takes it).
 */
import { parseArgs } from 'node:util';
import type { RecoveryOptions } from './bullmq.js';

/** A worker option that is not what it should be (the command answers it as a usage error). */
export class WorkerArgsError extends Error {}

/** What runWorker takes besides the Redis address. */
export type WorkerOptions = RecoveryOptions & { concurrency?: number; queue?: string };

/** A positive number given as `--name value`; WorkerArgsError otherwise. */
export function positive(value: string, name: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new WorkerArgsError(`--${name} must be a positive number`);
  return n;
}

/** Reads the worker's options from `args`; throws WorkerArgsError on an unknown option or a bad number. */
export function parseWorkerArgs(args: string[]): { redis?: string; options: WorkerOptions } {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      options: {
        redis: { type: 'string' },
        concurrency: { type: 'string' },
        'lock-duration': { type: 'string' },
        'stalled-interval': { type: 'string' },
        queue: { type: 'string' },
      },
    }));
  } catch (e) {
    throw new WorkerArgsError((e as Error).message);
  }
  return {
    ...(values.redis ? { redis: values.redis } : {}),
    options: {
      ...(values.queue ? { queue: values.queue } : {}),
      ...(values.concurrency ? { concurrency: positive(values.concurrency, 'concurrency') } : {}),
      ...(values['lock-duration'] ? { lockDuration: positive(values['lock-duration'], 'lock-duration') } : {}),
      ...(values['stalled-interval']
        ? { stalledInterval: positive(values['stalled-interval'], 'stalled-interval') }
        : {}),
    },
  };
}
