#!/usr/bin/env node
import fs from 'node:fs';
import nodePath from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { BankFolderName, type VerifyEvidenceData } from '@examhall/contract';
import { FORMATS } from '@examhall/importers';
import { runWorker } from '@examhall/judge';
import pino from 'pino';
import { ConfigError, loadConfig } from './config.js';
import { openRuntime } from './runtime.js';
import { seedDemo } from './services/demoSeed.js';
import { AppError } from './http/errors.js';
import type { ReadFile } from './services/imports.js';
import { createServices, type Services } from './services/index.js';
import { ConsoleSmsSender } from './sms/sender.js';

const USAGE = `Usage: examhall <command> [options]

Commands:
  create-admin --phone PHONE --password PASSWORD [--name NAME]
                 create the admin account (or reset its password)
  migrate        bring the database schema up to date
  seed-demo      seed the demo exam when the database has no exam
  judge-worker   judge code from the queue in Redis (REDIS_URL); run as many as the machines allow
  verify-evidence ATTEMPT
                 check an attempt's hash chain and the SHA-256 of every evidence file
                 (exit 0: all good, 1: problems found, 2: usage)
  import-questions FILE [--format F] [--folder PATH] [--team NAME] [--dry-run] [--json]
                 read a question file (formats: ${FORMATS.join(', ')}) and, without --dry-run,
                 import it all or nothing into the folder PATH (A/B, made when missing; default
                 Imported) of the team NAME (default: no team) as the first admin; --json prints
                 {"questions": [...], "problems": [...]}
                 (exit 0: clean, 1: the file has problems (nothing imported when one is an
                 error), 2: refused or usage)

The database is the one the environment configures (DATABASE_URL, or SQLite in DATA_DIR).`;

/** Runs one command; returns the exit code. Output goes to `out` and `err`. */
export async function runCli(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  out: (text: string) => void = (t) => process.stdout.write(t),
  err: (text: string) => void = (t) => process.stderr.write(t),
): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === '--help' || command === 'help') {
    out(`${USAGE}\n`);
    return command ? 0 : 2;
  }
  const config = loadConfig(env);
  if (command === 'judge-worker') {
    if (!config.redisUrl) {
      err('judge-worker needs REDIS_URL: without it the server judges in its own process\n');
      return 2;
    }
    const worker = await runWorker(config.redisUrl);
    out(`Judge worker taking jobs from ${config.redisUrl.replace(/\/\/[^@]*@/, '//')}\n`);
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    await worker.close();
    return 0;
  }
  const runtime = await openRuntime(config);
  const services = () => {
    const log = pino({ level: 'silent' });
    return createServices({
      config,
      db: runtime.handle.db,
      limiter: runtime.limiter,
      sms: new ConsoleSmsSender(log),
      store: runtime.store,
      groupCommitLanes: runtime.handle.kit.groupCommitLanes,
      judgeQueue: runtime.judgeQueue,
      notifier: runtime.notifier,
      clock: Date.now,
      log,
    });
  };
  try {
    switch (command) {
      case 'migrate':
        out(`Database (${runtime.handle.dialect}) is up to date.\n`);
        return 0;
      case 'seed-demo': {
        const seeded = await seedDemo(runtime.handle.db, runtime.store, config.demoPhone, Date.now());
        out(
          seeded
            ? `Demo exam ${seeded.examId} seeded, invitation ${seeded.anid}.\n`
            : 'The database already has exams; nothing seeded.\n',
        );
        return 0;
      }
      case 'create-admin': {
        const { values } = parseArgs({
          args: rest,
          options: { phone: { type: 'string' }, password: { type: 'string' }, name: { type: 'string' } },
        });
        if (!values.phone || !values.password) {
          err('create-admin needs --phone and --password\n');
          return 2;
        }
        const result = await services().staff.ensureAdmin(values.phone, values.password, values.name);
        out(
          result.created
            ? `Admin ${values.phone} created (id ${result.id}).\n`
            : `Admin ${values.phone} exists; password updated.\n`,
        );
        return 0;
      }
      case 'verify-evidence': {
        const [attempt, ...extra] = rest;
        if (!attempt || !/^[1-9]\d{0,15}$/.test(attempt) || extra.length > 0) {
          err('verify-evidence needs one attempt id: examhall verify-evidence ATTEMPT\n');
          return 2;
        }
        const attemptId = Number(attempt);
        if (!(await services().attempts.byId(attemptId))) {
          err(`No attempt ${attemptId} in this database.\n`);
          return 2;
        }
        const report = await services().verification.verify(attemptId);
        out(formatVerifyReport(attemptId, report));
        return report.ok ? 0 : 1;
      }
      case 'import-questions':
        return await importQuestions(rest, services(), out, err);
      default:
        err(`Unknown command: ${command}\n\n${USAGE}\n`);
        return 2;
    }
  } finally {
    await runtime.close();
  }
}

/** `import-questions`: reads a file, prints what it holds, and imports it unless `--dry-run`. */
async function importQuestions(
  args: string[],
  services: Services,
  out: (text: string) => void,
  err: (text: string) => void,
): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: {
        format: { type: 'string' },
        folder: { type: 'string' },
        team: { type: 'string' },
        'dry-run': { type: 'boolean' },
        json: { type: 'boolean' },
      },
    });
  } catch (e) {
    err(`${(e as Error).message}\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  const [fileName, ...extra] = positionals;
  if (!fileName || extra.length > 0) {
    err('import-questions needs one file: examhall import-questions FILE [--format F] [--folder PATH] --json\n');
    return 2;
  }
  const path = (values.folder ?? 'Imported').split('/').map((p) => p.trim());
  const badName = path.map((p) => BankFolderName.safeParse(p)).find((r) => !r.success);
  if (badName) {
    err(`--folder: ${badName.error?.issues[0]?.message ?? 'invalid'}\n`);
    return 2;
  }
  let data: Buffer;
  try {
    data = fs.readFileSync(fileName);
  } catch (e) {
    err(`${fileName}: ${(e as Error).message}\n`);
    return 2;
  }
  const file = { fileName: nodePath.basename(fileName), mime: 'application/octet-stream', data };
  let read: ReadFile;
  try {
    read = await services.imports.inspect(file, values.format);
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    // Refused whole: the one problem is the message.
    if (values.json) out(`${JSON.stringify({ questions: [], problems: [{ where: {}, message: e.message }] })}\n`);
    else err(`${e.message}\n`);
    return 2;
  }
  const report = {
    questions: read.questions.map((q) => ({
      type: q.kind === 'evaluation' ? 'evaluation' : q.type,
      kind: q.kind,
      title: q.title,
      folder: q.folder,
      tags: q.tags,
      difficulty: q.difficulty,
      knowledge_points: q.knowledge_points,
      points: q.default_score,
      content: q.question.content,
      key: q.question.key,
      valid: q.valid,
    })),
    problems: read.problems.map((p) => ({
      where: p.where,
      severity: p.severity,
      code: p.code,
      message: p.message,
      message_zh: p.message_zh,
    })),
  };
  const hasErrors = read.problems.some((p) => p.severity === 'error');
  let imported: string | null = null;
  if (!values['dry-run'] && !hasErrors) {
    const actor = await services.staff.operator();
    if (!actor) {
      err('No enabled admin account to import as: create one with create-admin first.\n');
      return 2;
    }
    try {
      const done = await services.imports.importAsOperator(actor, file, {
        format: values.format,
        teamName: values.team,
        path,
      });
      imported = `Imported ${done.question_ids.length} question(s) into ${path.join('/')}.`;
      Object.assign(report, { imported: done });
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
      err(`${e.message}\n`);
      return 2;
    }
  }
  if (values.json) out(`${JSON.stringify(report)}\n`);
  else {
    for (const p of read.problems) out(`${p.severity}: ${p.message}\n`);
    out(`${read.questions.length} question(s), ${read.problems.length} problem(s).\n`);
  }
  if (imported) err(`${imported}\n`);
  else if (!values['dry-run']) err('Nothing imported: the file has errors.\n');
  return read.problems.length > 0 ? 1 : 0;
}

/** The verification report as a person reads it. */
export function formatVerifyReport(attemptId: number, r: VerifyEvidenceData): string {
  const lines = [`Attempt ${attemptId}: ${r.records} records in the chain, ${r.files} evidence files checked.`];
  if (r.ok) lines.push('OK: every hash and link of the chain and every file check out.');
  else {
    const names = { chain: 'chain  ', missing: 'missing', digest: 'digest ' } as const;
    lines.push(`PROBLEMS (${r.problems.length}):`);
    for (const p of r.problems) lines.push(`  record ${p.record_id}  ${names[p.kind]}  ${p.detail}`);
  }
  return `${lines.join('\n')}\n`;
}

// Run only as the `examhall` command, not when imported by tests.
if (process.argv[1] && fileURLToPath(import.meta.url) === fs.realpathSync(process.argv[1])) {
  runCli(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(
        `${error instanceof ConfigError || error instanceof Error ? error.message : String(error)}\n`,
      );
      process.exit(1);
    },
  );
}
