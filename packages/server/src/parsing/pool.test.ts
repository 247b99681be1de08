/**
 * The parse pool: tasks answered from a worker thread, the queue's bound, a task's error kept as it was, and the
 * thread yielding the processor to the rest of its process.
 */
import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { STAFF_NICENESS } from '../cluster/priority.js';
import { AppError } from '../errors.js';
import { ParseBusyError, ParsePool } from './pool.js';

const csv = (text: string) => ({ name: 'list.csv', bytes: new TextEncoder().encode(text) });

describe('ParsePool', () => {
  const pool = new ParsePool({ size: 1, maxQueue: 1 });
  afterAll(() => pool.close());

  it("runs tasks on its worker, refuses one past its queue, and keeps a task's error as it was thrown", async () => {
    const first = pool.run('candidate_sheet', csv('手机号,姓名\n13800000001,甲\n'));
    const second = pool.run('candidate_sheet', csv('name\nx\n'));
    await expect(pool.run('candidate_sheet', csv('手机号\n1\n'))).rejects.toBeInstanceOf(ParseBusyError);
    const read = await first;
    expect(read.sheet.entries.map((e) => [e.row, e.values.phone, e.valid])).toEqual([[2, '13800000001', true]]);
    const refused = await second.then(
      () => null,
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe('candidate_import_refused');
    expect((refused as AppError).message).toContain('no phone column');
    // the queue is free again
    await expect(pool.run('candidate_sheet', csv('手机号,姓名\n13800000002,乙\n'))).resolves.toMatchObject({
      sheet: { rowsRead: 1 },
    });
  });

  it.runIf(process.platform === 'linux')(
    "reads files at a lower priority than the process's own thread, which keeps its own",
    async () => {
      /** The niceness of each thread of this process (field 19 of its stat, after the name in parentheses). */
      const niceness = () =>
        fs.readdirSync('/proc/self/task').map((tid) => {
          const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
          return { tid: Number(tid), nice: Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]) };
        });
      const before = niceness();
      const own = before.find((t) => t.tid === process.pid)!.nice;
      const fresh = new ParsePool({ size: 1, maxQueue: 1 });
      try {
        await fresh.run('candidate_sheet', csv('手机号,姓名\n13800000003,丙\n'));
        const after = niceness();
        const started = after.filter((t) => !before.some((b) => b.tid === t.tid));
        expect(started.some((t) => t.nice === Math.max(own, STAFF_NICENESS))).toBe(true);
        expect(after.find((t) => t.tid === process.pid)!.nice).toBe(own);
      } finally {
        await fresh.close();
      }
    },
  );
});
