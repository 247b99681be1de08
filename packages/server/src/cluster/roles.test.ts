/**
 * What each process of the supervisor does: an API process hands no periodic task to a scheduler and runs no job
 * (it only queues them), the worker process runs every periodic task, as one process does. So each periodic task
 * runs once per period across the processes, and no job or sweep runs on an event loop that answers candidates.
 */
import { api } from '@examhall/contract';
import { afterEach, describe, expect, it } from 'vitest';
import type { PeriodicScheduler, PeriodicTask } from '../jobs/index.js';
import { body, createTestApp, type TestApp } from '../test/app.js';
import { testedDialects } from '../test/db.js';

/** A scheduler that keeps the tasks it is handed and fires none. */
class HeldTasks implements PeriodicScheduler {
  tasks: readonly PeriodicTask[] | undefined;
  start(tasks: readonly PeriodicTask[]): void {
    this.tasks = tasks;
  }
  async close(): Promise<void> {}
}

describe.each(await testedDialects())('process roles on %s', (dialect) => {
  const apps: TestApp[] = [];
  afterEach(async () => {
    for (const t of apps.splice(0)) await t.close();
  });

  const appAs = async (role: 'all' | 'api' | 'worker') => {
    const held = new HeldTasks();
    const t = await createTestApp(dialect, { role, sweepIntervalMs: 60_000, jobs: { scheduler: held, pollMs: 50 } });
    apps.push(t);
    return { t, held };
  };

  it('gives every periodic task to the worker process and none to an API process', async () => {
    const all = await appAs('all');
    const worker = await appAs('worker');
    const apiProcess = await appAs('api');
    expect(all.held.tasks?.length).toBeGreaterThan(5);
    expect(worker.held.tasks?.map((task) => task.name)).toEqual(all.held.tasks?.map((task) => task.name));
    expect(apiProcess.held.tasks, 'an API process starts no scheduler').toBeUndefined();
  });

  it('queues a job in an API process without running it there', async () => {
    const { t } = await appAs('api');
    const admin = await t.loginStaff('admin');
    const { examId } = await t.seed('13800138000');
    const started = await t.app.inject({
      method: 'POST',
      url: `/api${api.resultsExport.path}`,
      headers: { authorization: `Bearer ${admin}` },
      payload: { exam_id: examId, format: 'csv' },
    });
    expect(started.statusCode, started.body).toBe(200);
    const jobId = body<{ job_id: number }>(started).data.job_id;
    // Far longer than the runner's poll: a runner here would have claimed it.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const row = await t.db.handle.db
      .selectFrom('job')
      .select('state')
      .where('id', '=', jobId)
      .executeTakeFirstOrThrow();
    expect(row.state).toBe('queued');
  });
});
