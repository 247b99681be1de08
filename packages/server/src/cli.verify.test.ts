import { LocalJudgeQueue } from '@examhall/judge';
import { afterEach, describe, expect, it } from 'vitest';
import { commandServices, runCli } from './cli.js';
import { loadConfig } from './config.js';
import { openRuntime } from './runtime.js';
import { seedDemo } from './services/demoSeed.js';
import { cliEnvironment } from './test/cliEnv.js';
import { testedDialects } from './test/db.js';

describe.each(await testedDialects())('examhall verify-evidence on %s', (dialect) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  /** An environment of its own: a data folder, and on PostgreSQL a database of its own (the CLI works in its default schema). */
  const environment = async () => (await cliEnvironment(dialect, cleanups)).env;

  async function cli(args: string[], env: Record<string, string>) {
    const lines: string[] = [];
    const code = await runCli(
      args,
      env,
      (t) => lines.push(t),
      (t) => lines.push(t),
    );
    return { code, text: lines.join('') };
  }

  it('reports a clean chain, then a tampered record and a tampered file, with its exit codes', async () => {
    const env = await environment();
    const config = loadConfig(env);
    const runtime = await openRuntime(config);
    const judgeQueue = new LocalJudgeQueue(1);
    const services = commandServices(config, runtime, judgeQueue);
    cleanups.push(async () => {
      await judgeQueue.close();
      await runtime.close();
    });
    const db = runtime.handle.db;
    const seeded = (await seedDemo(db, runtime.store, '13800138000', Date.now()))!;
    const candidate = await db
      .insertInto('candidates')
      .values({ area_code: '86', phone: '13800138000', created_at: Date.now() })
      .returning('id')
      .executeTakeFirstOrThrow();
    const attempt = await db
      .insertInto('attempts')
      .values({
        exam_id: seeded.examId,
        candidate_id: candidate.id,
        invitation_id: seeded.anid,
        mode: 1,
        phase: 2,
        created_at: Date.now(),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const first = await services.evidence.recordServerPicture(attempt, 'frame', Buffer.from('frame one'));
    const second = await services.evidence.recordServerPicture(attempt, 'face', Buffer.from('face'), { risk: 7 });
    expect(second.riskId).not.toBeNull();

    const ok = await cli(['verify-evidence', String(attempt.id)], env);
    expect(ok).toEqual({
      code: 0,
      text: expect.stringContaining(`Attempt ${attempt.id}: 3 records in the chain, 2 evidence files checked.\nOK`),
    });

    await db.updateTable('risk_records').set({ detail: 'edited' }).where('id', '=', first.id).execute();
    const tamperedRecord = await cli(['verify-evidence', String(attempt.id)], env);
    expect(tamperedRecord.code).toBe(1);
    expect(tamperedRecord.text).toContain('PROBLEMS (1):');
    expect(tamperedRecord.text).toMatch(new RegExp(`record ${first.id}\\s+chain`));

    await runtime.store.put(second.key, Buffer.from('another face'));
    const tamperedFile = await cli(['verify-evidence', String(attempt.id)], env);
    expect(tamperedFile.code).toBe(1);
    expect(tamperedFile.text).toContain('PROBLEMS (2):');
    expect(tamperedFile.text).toMatch(new RegExp(`record ${second.id}\\s+digest\\s+${second.key}`));

    expect((await cli(['verify-evidence'], env)).code).toBe(2);
    expect((await cli(['verify-evidence', 'abc'], env)).code).toBe(2);
    expect(await cli(['verify-evidence', '999999'], env)).toMatchObject({
      code: 2,
      text: expect.stringContaining('No attempt'),
    });
  });
});
