/**
 * The in-process runner on both dialects: progress and result, a failure's stable error, cancel, and a
 * runner that dies mid-job (its database connection gone, so no lease renewal and no commit): another runner
 * on the same database takes the job over when the lease runs out and resumes from the checkpoint, so every
 * item's effect happens exactly once.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JobRepository } from '../repositories/jobs.js';
import { testedDialects } from '../test/db.js';
import { effectCounts, sharedDb, testHandlers, type SharedDb, type TestKind } from '../test/jobKinds.js';
import { LocalJobQueue } from './local.js';
import { jobFromRow } from './row.js';
import type { Job } from './types.js';

const owner = { staffId: null, teamId: null };

/** Waits until `check` answers a value, polling. */
async function until<T>(check: () => Promise<T | undefined | false>, timeoutMs = 15_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.each(await testedDialects())('the in-process job runner on %s', (dialect) => {
  let shared: SharedDb;
  const queues: LocalJobQueue<TestKind>[] = [];

  const job = async (id: number): Promise<Job> => jobFromRow((await new JobRepository(shared.db).byId(id))!);
  const ended = (id: number) =>
    until(async () => {
      const j = await job(id);
      return ['done', 'failed', 'cancelled'].includes(j.state) && j;
    });
  const queue = (q: LocalJobQueue<TestKind>) => {
    queues.push(q);
    return q;
  };

  beforeEach(async () => {
    shared = await sharedDb(dialect);
  });
  afterEach(async () => {
    for (const q of queues.splice(0)) await q.close();
    await shared.drop();
  });

  it('runs a job to its result, with its progress, each item once', async () => {
    const q = queue(new LocalJobQueue(shared.db, testHandlers(), { pollMs: 50 }));
    await q.start();
    const id = await q.enqueue({
      kind: 'items',
      payload: { n: 6, delayMs: 0 },
      owner: { staffId: null, teamId: null },
    });
    const j = await ended(id);
    expect(j).toMatchObject({
      state: 'done',
      result: { n: 6, mine: 6 },
      progress: { done: 6, total: 6, phase: 'items' },
      attempts: 1,
      error: null,
    });
    expect(j.finishedAt).not.toBeNull();
    expect([...(await effectCounts(shared.db, id)).entries()].sort()).toEqual([0, 1, 2, 3, 4, 5].map((i) => [i, 1]));
  });

  it("fails a job with its handler's stable error code, and an unexpected error as internal_error", async () => {
    const q = queue(new LocalJobQueue(shared.db, testHandlers(), { pollMs: 50 }));
    await q.start();
    const refused = await q.enqueue({ kind: 'fails', payload: { code: 'import_refused' }, owner });
    const broken = await q.enqueue({ kind: 'fails', payload: { code: 'other' }, owner });
    expect(await ended(refused)).toMatchObject({
      state: 'failed',
      error: { code: 'import_refused', message: 'not a question file' },
      result: null,
    });
    expect(await ended(broken)).toMatchObject({
      state: 'failed',
      error: { code: 'internal_error', message: 'the disk is on fire' },
    });
  });

  it('cancels a queued job at once and a running one at its next step, keeping what it committed', async () => {
    const idle = new LocalJobQueue(shared.db, testHandlers(), { pollMs: 50 });
    const queued = await idle.enqueue({ kind: 'items', payload: { n: 3, delayMs: 0 }, owner });
    expect(await idle.cancel(queued)).toMatchObject({ state: 'cancelled', cancelRequested: true });

    const q = queue(new LocalJobQueue(shared.db, testHandlers(), { pollMs: 50 }));
    await q.start();
    const id = await q.enqueue({ kind: 'items', payload: { n: 50, delayMs: 30 }, owner });
    await until(async () => ((await effectCounts(shared.db, id)).size >= 3 ? true : undefined));
    await q.cancel(id);
    const j = await ended(id);
    expect(j.state).toBe('cancelled');
    const counts = await effectCounts(shared.db, id);
    expect(counts.size).toBeLessThan(50);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    // Nothing more happens after the cancel.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await effectCounts(shared.db, id)).size).toBe(counts.size);
    // The one never started did nothing.
    expect((await effectCounts(shared.db, queued)).size).toBe(0);
  });

  it('a runner that dies mid-job loses and duplicates nothing: another takes over after the lease and resumes', async () => {
    const leaseMs = 400;
    const dyingDb = shared.open();
    // The first runner hangs at item 4, as a process that died there would: no renewal, no commit.
    const hang = new Promise<void>(() => undefined);
    const dying = queue(
      new LocalJobQueue(
        dyingDb,
        testHandlers((item) => (item === 4 ? hang : Promise.resolve())),
        {
          pollMs: 50,
          leaseMs,
          runnerId: 'dying',
        },
      ),
    );
    await dying.start();
    const id = await dying.enqueue({ kind: 'items', payload: { n: 10, delayMs: 0 }, owner });
    await until(async () => ((await effectCounts(shared.db, id)).size === 4 ? true : undefined));
    await dyingDb.destroy();
    queues.splice(queues.indexOf(dying), 1);

    const heir = queue(new LocalJobQueue(shared.open(), testHandlers(), { pollMs: 50, leaseMs, runnerId: 'heir' }));
    await heir.start();
    const j = await ended(id);
    expect(j).toMatchObject({ state: 'done', attempts: 2, result: { n: 10, mine: 6 } });
    const counts = await effectCounts(shared.db, id);
    expect([...counts.entries()].sort((a, b) => a[0] - b[0])).toEqual(Array.from({ length: 10 }, (_, i) => [i, 1]));
  });

  it('a runner whose job was taken over cannot commit another step (the checkpoint is fenced by the lease)', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const q = queue(
      new LocalJobQueue(
        shared.db,
        testHandlers((item) => (item === 2 ? gate : Promise.resolve())),
        {
          pollMs: 50,
          runnerId: 'slow',
        },
      ),
    );
    await q.start();
    const id = await q.enqueue({ kind: 'items', payload: { n: 5, delayMs: 0 }, owner });
    await until(async () => ((await effectCounts(shared.db, id)).size === 2 ? true : undefined));
    // Another runner took the job (the slow one's lease was presumed run out).
    await shared.db
      .updateTable('job')
      .set({ locked_by: 'other', lease_until: Date.now() + 60_000 })
      .where('id', '=', id)
      .execute();
    release();
    await until(async () => (q.executor.busy === 0 ? true : undefined));
    expect((await effectCounts(shared.db, id)).size).toBe(2);
    expect(await job(id)).toMatchObject({ state: 'running' });
  });
});
