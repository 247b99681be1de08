#!/usr/bin/env node
import fs from 'node:fs';
import nodePath from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { BankFolderName, LANGUAGES, type LanguageId, type VerifyEvidenceData } from '@examhall/contract';
import { FORMATS } from '@examhall/importers';
import { parseWorkerArgs, runWorker, WorkerArgsError, type JudgeQueue, type WorkerOptions } from '@examhall/judge';
import pino from 'pino';
import { ConfigError, loadConfig, type Config } from './config.js';
import { serveJudgeWorkerOps } from './ops/judgeWorker.js';
import { openRuntime, type Runtime } from './runtime.js';
import { supervise } from './cluster/supervisor.js';
import { serve } from './server.js';
import { seedDemo } from './services/demoSeed.js';
import { AppError } from './errors.js';
import type { ReadFile } from './services/imports.js';
import { createServices, type Services } from './services/index.js';
import { ConsoleSmsSender } from './sms/sender.js';
import { compareSources, groups } from './similarity/index.js';
import { unsupportedNode } from './nodeVersion.js';

const USAGE = `Usage: examhall <command> [options]

Commands:
  create-admin --phone PHONE --password PASSWORD [--name NAME]
                 create the admin account (or reset its password)
  serve [--processes N]
                 serve the API and the web app until SIGTERM: a supervisor with N API processes (default:
                 PROCESSES, else one per core) and a worker process for jobs and periodic tasks; 1 runs all in
                 one process; with CLUSTER=true one process of many, on PostgreSQL, Redis and an S3-compatible
                 store (no demo seed)
  migrate        bring the database schema up to date
  seed-demo      seed the demo exam when the database has no exam
  judge-worker [--concurrency N] [--lock-duration MS] [--stalled-interval MS]
                 judge code from the queue in Redis (REDIS_URL); run as many as the machines allow
                 (a dead worker's job goes to another once its lock, 30 s, runs out; stalls looked for every 15 s)
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
  similarity --language L DIR [--starter FILE] [--json]
                 compare every pair of files in the folder DIR written in L (${LANGUAGES.map((l) => l.id).join(', ')}),
                 leaving out what they share with the starter code FILE; --json prints
                 {"pairs": [{"a": FILE, "b": FILE, "score": 0..1}, ...]}, every pair, highest score first
                 (score: the share of the smaller file's fingerprints the other holds too; exit 0, 2: usage)

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
  // Needs no database: files in, pairs out.
  if (command === 'similarity') return similarity(rest, out, err);
  const config = loadConfig(env);
  if (command === 'serve') {
    const { values } = parseArgs({ args: rest, options: { processes: { type: 'string' } }, strict: true });
    const processes = values.processes === undefined ? config.processes : Number(values.processes);
    if (!Number.isInteger(processes) || processes < 1 || processes > 64) {
      err('--processes takes a whole number from 1 to 64\n');
      return 2;
    }
    if (!config.cluster && processes > 1) await supervise(config, { seed: true, processes });
    else await serve(config, { seed: !config.cluster });
    // Serves until a signal ends the process (see ops/shutdown.ts).
    await new Promise<never>(() => undefined);
  }
  if (command === 'judge-worker') {
    if (!config.redisUrl) {
      err('judge-worker needs REDIS_URL: without it the server judges in its own process\n');
      return 2;
    }
    let options: WorkerOptions;
    try {
      ({ options } = parseWorkerArgs(rest));
    } catch (e) {
      if (!(e instanceof WorkerArgsError)) throw e;
      err(`${e.message}\n${USAGE}\n`);
      return 2;
    }
    const worker = await runWorker(config.redisUrl, options);
    const ops =
      config.metricsPort === undefined
        ? undefined
        : await serveJudgeWorkerOps({
            worker: worker.worker,
            redisUrl: config.redisUrl,
            host: config.host,
            port: config.metricsPort,
            metricsToken: config.metricsToken,
          });
    out(`Judge worker taking jobs from ${config.redisUrl.replace(/\/\/[^@]*@/, '//')}\n`);
    if (ops) out(`Its /healthz, /readyz and /metrics at ${ops.address}\n`);
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    await ops?.close();
    await worker.close();
    return 0;
  }
  const runtime = await openRuntime(config);
  const services = () => commandServices(config, runtime);
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
      explanation: q.explanation,
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

/** `similarity`: every pair of files in a folder with its score, highest first. */
function similarity(args: string[], out: (text: string) => void, err: (text: string) => void): number {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: { language: { type: 'string' }, starter: { type: 'string' }, json: { type: 'boolean' } },
    });
  } catch (e) {
    err(`${(e as Error).message}\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  const [dir, ...extra] = positionals;
  if (!dir || extra.length > 0 || !values.language) {
    err('similarity needs a language and one folder: examhall similarity --language L DIR [--starter FILE] [--json]\n');
    return 2;
  }
  const wanted = values.language.toLowerCase();
  const language = LANGUAGES.find((l) => l.id === wanted || l.name.toLowerCase() === wanted)?.id as
    LanguageId | undefined;
  if (!language) {
    err(`Unknown language ${values.language}: one of ${LANGUAGES.map((l) => l.id).join(', ')}\n`);
    return 2;
  }
  let starter: string | undefined;
  let starterPath: string | undefined;
  if (values.starter) {
    try {
      starter = fs.readFileSync(values.starter, 'utf8');
      starterPath = fs.realpathSync(values.starter);
    } catch (e) {
      err(`--starter ${values.starter}: ${(e as Error).message}\n`);
      return 2;
    }
  }
  let names: string[];
  try {
    if (!fs.statSync(dir).isDirectory()) throw new Error('not a folder');
    names = fs
      .readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isFile() && !d.name.startsWith('.'))
      .map((d) => d.name)
      .filter((name) => fs.realpathSync(nodePath.join(dir, name)) !== starterPath)
      .sort();
  } catch (e) {
    err(`${dir}: ${(e as Error).message}\n`);
    return 2;
  }
  const sources = names.map((name) => fs.readFileSync(nodePath.join(dir, name), 'utf8'));
  const { pairs: found } = compareSources(sources, language, starter);
  const scores = new Map(found.map((p) => [`${p.a}:${p.b}`, p.score]));
  const pairs: { a: string; b: string; score: number }[] = [];
  for (let a = 0; a < names.length; a++) {
    for (let b = a + 1; b < names.length; b++) {
      const score = Math.round((scores.get(`${a}:${b}`) ?? 0) * 10_000) / 10_000;
      pairs.push({ a: names[a]!, b: names[b]!, score });
    }
  }
  pairs.sort((x, y) => y.score - x.score || x.a.localeCompare(y.a) || x.b.localeCompare(y.b));
  if (values.json) {
    out(`${JSON.stringify({ pairs })}\n`);
    return 0;
  }
  const width = Math.max(1, ...names.map((n) => n.length));
  out(`${names.length} file(s), ${pairs.length} pair(s)\n`);
  for (const p of pairs.filter((q) => q.score > 0)) {
    out(`  ${p.score.toFixed(2)}  ${p.a.padEnd(width)}  ${p.b}\n`);
  }
  const none = pairs.filter((p) => p.score === 0).length;
  if (none > 0) out(`  (${none} pair(s) share nothing)\n`);
  for (const g of groups(found)) out(`Group of ${g.members.length}: ${g.members.map((m) => names[m]).join(', ')}\n`);
  return 0;
}

/** The services a command runs with on `runtime`: logging nothing, its texts written to the console. */
export function commandServices(
  config: Config,
  runtime: Runtime,
  judgeQueue: JudgeQueue = runtime.judgeQueue,
): Services {
  const log = pino({ level: 'silent' });
  return createServices({
    config,
    db: runtime.handle.db,
    limiter: runtime.limiter,
    sms: new ConsoleSmsSender(log),
    store: runtime.store,
    groupCommitLanes: runtime.handle.kit.groupCommitLanes,
    judgeQueue,
    notifier: runtime.notifier,
    clock: Date.now,
    log,
  });
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
  const refusal = unsupportedNode();
  if (refusal) {
    process.stderr.write(`${refusal}\n`);
    process.exit(2);
  }
  runCli(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(
        `${error instanceof ConfigError || error instanceof Error ? error.message : String(error)}\n`,
      );
      // An invalid configuration is a usage error, as the server itself answers it.
      process.exit(error instanceof ConfigError ? 2 : 1);
    },
  );
}
