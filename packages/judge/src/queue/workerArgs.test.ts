import { describe, expect, it } from 'vitest';
import { parseWorkerArgs, WorkerArgsError } from './workerArgs.js';

describe("the judge worker's options", () => {
  it('reads the Redis address, queue, concurrency and recovery intervals', () => {
    expect(
      parseWorkerArgs([
        '--redis',
        'redis://r:6379/0',
        '--queue',
        'q',
        '--concurrency',
        '2',
        '--lock-duration',
        '3000',
        '--stalled-interval',
        '1000',
      ]),
    ).toEqual({
      redis: 'redis://r:6379/0',
      options: { queue: 'q', concurrency: 2, lockDuration: 3000, stalledInterval: 1000 },
    });
    expect(parseWorkerArgs([])).toEqual({ options: {} });
  });

  it('refuses a number that is not positive and an unknown option, naming it', () => {
    expect(() => parseWorkerArgs(['--lock-duration', 'soon'])).toThrow(WorkerArgsError);
    expect(() => parseWorkerArgs(['--lock-duration', 'soon'])).toThrow('--lock-duration must be a positive number');
    expect(() => parseWorkerArgs(['--concurrency', '0'])).toThrow('--concurrency');
    expect(() => parseWorkerArgs(['--lock', '5'])).toThrow(WorkerArgsError);
  });
});
