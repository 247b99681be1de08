import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from './cli.js';
import { loadConfig } from './config.js';
import { openRuntime } from './runtime.js';
import { cliEnvironment } from './test/cliEnv.js';
import { testedDialects } from './test/db.js';

/** Clean, explanations and feedback per option included: they are kept, and are no problem. */
const CLEAN = `$CATEGORY: Net

::Q1:: Which status means not found? {=404#Not Found. ~200#That is OK. ~500 ####<p>4xx codes are the client's errors.</p>}

::Q2:: HTTP is stateless. {T####Each request stands alone.}
`;
/** The second question's answer block is never closed (line 3). */
const BROKEN = `::Q1:: Which status means not found? {=404 ~200 ~500}

::Q2:: HTTP is stateless. {T
`;

describe.each(await testedDialects())('examhall import-questions on %s', (dialect) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  /** An environment of its own: a data folder, and on PostgreSQL a database of its own. */
  const environment = () => cliEnvironment(dialect, cleanups);

  async function cli(args: string[], env: Record<string, string>) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(
      args,
      env,
      (t) => out.push(t),
      (t) => err.push(t),
    );
    return { code, out: out.join(''), err: err.join('') };
  }

  /** Questions and folders in the database, read through a runtime of its own. */
  async function stored(env: Record<string, string>) {
    const runtime = await openRuntime(loadConfig(env));
    try {
      const db = runtime.handle.db;
      const questions = await db
        .selectFrom('bank_questions')
        .select(['kind', 'team_id', 'folder_id', 'explanation'])
        .orderBy('id')
        .execute();
      const folders = await db
        .selectFrom('bank_folders')
        .select(['id', 'name', 'parent_id', 'team_id'])
        .orderBy('id')
        .execute();
      const teams = await db.selectFrom('teams').select(['id', 'name']).execute();
      return { questions, folders, teams };
    } finally {
      await runtime.close();
    }
  }

  it('prints the questions and problems as JSON with exit 0, 1 or 2, and writes nothing on a dry run', async () => {
    const { env, dir } = await environment();
    const write = (name: string, data: string | Buffer) => {
      const file = path.join(dir, name);
      fs.writeFileSync(file, data);
      return file;
    };

    const clean = await cli(['import-questions', write('clean.gift', CLEAN), '--dry-run', '--json'], env);
    expect(clean.code, clean.err).toBe(0);
    const report = JSON.parse(clean.out) as { questions: Record<string, unknown>[]; problems: unknown[] };
    expect(report.problems).toEqual([]);
    expect(report.questions.map((q) => [q.type, q.folder])).toEqual([
      [1, ['Net']],
      [7, ['Net']],
    ]);
    expect(report.questions[0]).toMatchObject({
      content: { options: [{ id: 'A' }, { id: 'B' }, { id: 'C' }] },
      key: { option: 'A' },
      explanation: {
        text: "<p>4xx codes are the client's errors.</p>",
        options: { A: 'Not Found.', B: 'That is OK.' },
      },
    });
    expect(report.questions[1]).toMatchObject({ explanation: { text: 'Each request stands alone.', options: {} } });

    const broken = await cli(['import-questions', write('broken.gift', BROKEN), '--dry-run', '--json'], env);
    expect(broken.code).toBe(1);
    const problems = (JSON.parse(broken.out) as { problems: { where: { line?: number }; message: string }[] }).problems;
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ where: { line: 3 }, message: expect.stringMatching(/^line 3: /) });

    const garbage = Buffer.from(Array.from({ length: 2048 }, (_, i) => (i * 131) % 256));
    const refused = await cli(['import-questions', write('garbage.gift', garbage), '--json'], env);
    expect(refused.code).toBe(2);
    expect(JSON.parse(refused.out)).toMatchObject({ questions: [], problems: [{ message: expect.any(String) }] });
    expect((await cli(['import-questions', '--json'], env)).code).toBe(2);
    expect((await cli(['import-questions', write('x.gift', CLEAN), '--format', 'docx', '--json'], env)).code).toBe(2);

    expect((await stored(env)).questions).toEqual([]);
  });

  it('imports into a folder path of a team, made when missing, all or nothing, as the first admin', async () => {
    const { env, dir } = await environment();
    const file = path.join(dir, 'clean.gift');
    fs.writeFileSync(file, CLEAN);
    const brokenFile = path.join(dir, 'broken.gift');
    fs.writeFileSync(brokenFile, BROKEN);

    // Without an admin there is nobody to import as.
    expect((await cli(['import-questions', file, '--json'], env)).code).toBe(2);
    expect((await cli(['create-admin', '--phone', '13900000009', '--password', 'a-long-password'], env)).code).toBe(0);
    const runtime = await openRuntime(loadConfig(env));
    await runtime.handle.db.insertInto('teams').values({ name: 'Campus', created_at: Date.now() }).execute();
    await runtime.close();

    expect((await cli(['import-questions', file, '--team', 'Nobody', '--json'], env)).code).toBe(2);
    const broken = await cli(
      ['import-questions', brokenFile, '--folder', 'Bank/2025', '--team', 'Campus', '--json'],
      env,
    );
    expect(broken.code).toBe(1);
    expect((await stored(env)).questions).toEqual([]);

    const done = await cli(['import-questions', file, '--folder', 'Bank/2025', '--team', 'Campus', '--json'], env);
    expect(done.code, done.err).toBe(0);
    expect(done.err).toContain('Imported 2 question(s) into Bank/2025.');
    const { questions, folders, teams } = await stored(env);
    const team = teams.find((t) => t.name === 'Campus')!.id;
    const byName = new Map(folders.map((f) => [f.name, f]));
    expect(byName.get('Bank')).toMatchObject({ parent_id: null, team_id: team });
    expect(byName.get('2025')).toMatchObject({ parent_id: byName.get('Bank')!.id, team_id: team });
    // The file's own category is a folder below the target.
    expect(byName.get('Net')).toMatchObject({ parent_id: byName.get('2025')!.id, team_id: team });
    expect(questions.map(({ explanation: _e, ...q }) => q)).toEqual([
      { kind: 'single', team_id: team, folder_id: byName.get('Net')!.id },
      { kind: 'true_false', team_id: team, folder_id: byName.get('Net')!.id },
    ]);
    // Each question keeps its explanation and its options' feedback.
    expect(questions.map((q) => JSON.parse(q.explanation ?? 'null') as unknown)).toEqual([
      { text: "<p>4xx codes are the client's errors.</p>", options: { A: 'Not Found.', B: 'That is OK.' } },
      { text: 'Each request stands alone.', options: {} },
    ]);

    // Again into the same path: the folders are found, not made twice.
    expect((await cli(['import-questions', file, '--folder', 'Bank/2025', '--team', 'Campus'], env)).code).toBe(0);
    const again = await stored(env);
    expect(again.folders).toHaveLength(3);
    expect(again.questions).toHaveLength(4);
  });
});
