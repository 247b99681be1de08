/**
 * npm run bench:exam -- --candidates N: the whole campus exam mix against the built server (examBench.ts). Options:
 * --login-spread-s (logins and device checks spread over this many seconds before the window opens: candidates
 * check in before it, at most CHECK_IN_MINUTES), --start-spread-s (everyone presses start within this after the
 * opening, and follows the admission queue as the page does), --admission-rate (the server's ADMISSION_RATE), --exam-s (each candidate's exam after its start), --dialect
 * sqlite|postgres, --sockets (the load process's keep-alive pool), --answer-every-s, --sync-every-s,
 * --frame-every-s, --risk-every-s (the exam's rhythm), --noop-per-s, --api-processes N (or --cluster N: N API
 * processes with CLUSTER=true on a fresh PostgreSQL database, a Redis server of their own and s3rver on loopback;
 * candidates are spread over them in turn), --no-assets (the page's files come from a CDN:
 * the page is fetched, its scripts and styles are not), --out (folder of the JSON and chart), --staff-load (the mix
 * twice on one server started as `npm start` starts it: alone, then beside an admin's imports, similarity,
 * analysis, ranking and export; p99 per call of both halves and their ratio, staff actions' times:
 * staffLoadBench.ts), --processes N (with --staff-load, the server's PROCESSES; default one per core),
 * --alone-after (with --staff-load, a third half alone after the loaded one), --no-warm-up (with --staff-load: no
 * unmeasured half first; the alone half then runs on the fresh server).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { CHECK_IN_MINUTES } from '@examhall/contract';
import { runExamBench } from './examBench.js';
import type { ExamBenchOptions } from './examSummary.js';
import { runStaffLoadBench } from './staffLoadBench.js';
import { fileLimitVerdict, filesNeeded, mostCandidates, readFileLimit } from './fileLimit.js';

const OPTIONS = {
  candidates: { type: 'string', default: '200' },
  'login-spread-s': { type: 'string', default: '30' },
  'start-spread-s': { type: 'string', default: '30' },
  'exam-s': { type: 'string', default: '60' },
  'admission-rate': { type: 'string' },
  dialect: { type: 'string', default: 'sqlite' },
  'api-processes': { type: 'string', default: '1' },
  cluster: { type: 'string' },
  sockets: { type: 'string', default: '256' },
  'answer-every-s': { type: 'string', default: '10' },
  'sync-every-s': { type: 'string', default: '60' },
  'frame-every-s': { type: 'string', default: '30' },
  'risk-every-s': { type: 'string', default: '600' },
  'noop-per-s': { type: 'string', default: '20' },
  'no-assets': { type: 'boolean', default: false },
  'staff-load': { type: 'boolean', default: false },
  'alone-after': { type: 'boolean', default: false },
  'warm-up': { type: 'boolean', default: true },
  processes: { type: 'string' },
  out: {
    type: 'string',
    default: path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../bench/results'),
  },
  help: { type: 'boolean', default: false },
} as const;

/** The options, one a line, with their defaults: what --help and a mistyped option print. */
function usage(): string {
  const lines = Object.entries(OPTIONS).map(([name, o]) => {
    // A switch that is on unless turned off is listed as its negation.
    if (o.type === 'boolean' && o.default === true) return `  --no-${name}`;
    const d = 'default' in o && o.default !== false ? ` (default ${String(o.default)})` : '';
    return `  --${name}${o.type === 'string' ? ' VALUE' : ''}${d}`;
  });
  return ['usage: npm run bench:exam -- [options]', ...lines].join('\n');
}

function parse() {
  try {
    return parseArgs({ options: OPTIONS, allowNegative: true }).values;
  } catch (err) {
    console.error(`${err instanceof Error ? err.message : String(err)}\n${usage()}`);
    process.exit(2);
  }
}

const values = parse();
if (values.help) {
  console.log(usage());
  process.exit(0);
}

/** A positive number option, or a clear refusal. */
function num(name: keyof typeof values, min = 0): number {
  const v = Number(values[name]);
  if (!Number.isFinite(v) || v < min) {
    console.error(`--${name} must be a number of at least ${min}, not ${String(values[name])}`);
    process.exit(2);
  }
  return v;
}

if (values.dialect !== 'sqlite' && values.dialect !== 'postgres') {
  console.error(`--dialect must be sqlite or postgres, not ${values.dialect}`);
  process.exit(2);
}

// Candidates check in before the opening: the server takes the device checks from CHECK_IN_MINUTES before it.
if (num('login-spread-s') > CHECK_IN_MINUTES * 60 - 10) {
  console.error(
    `--login-spread-s must be at most ${CHECK_IN_MINUTES * 60 - 10}: candidates check in from ${CHECK_IN_MINUTES} minutes before the opening`,
  );
  process.exit(2);
}

const apiProcesses = Math.floor(values.cluster !== undefined ? num('cluster', 1) : num('api-processes', 1));
if (apiProcesses > 1 && values.dialect !== 'postgres' && process.argv.includes('--dialect')) {
  console.error('a cluster runs on PostgreSQL: leave out --dialect or give --dialect postgres');
  process.exit(2);
}

if (values['staff-load'] && apiProcesses > 1) {
  console.error(
    '--staff-load runs the server as `npm start` does: give --processes N, not --cluster or --api-processes',
  );
  process.exit(2);
}
if (values.processes !== undefined && !values['staff-load']) {
  console.error('--processes goes with --staff-load');
  process.exit(2);
}
if (values['alone-after'] && !values['staff-load']) {
  console.error('--alone-after goes with --staff-load');
  process.exit(2);
}
if (process.argv.includes('--no-warm-up') && !values['staff-load']) {
  console.error('--no-warm-up goes with --staff-load');
  process.exit(2);
}

// Every candidate's event stream is an open file in the load process and the server: raise the soft limit (the
// server inherits it) by running again under `ulimit -n`, or refuse a run the hard limit cannot hold.
const candidates = Math.floor(num('candidates', 1));
const fileRun = { apiProcesses, sockets: Math.floor(num('sockets', 1)) };
const fileLimit = readFileLimit();
const verdict = fileLimitVerdict(
  filesNeeded({ candidates, ...fileRun }),
  fileLimit,
  fileLimit ? mostCandidates(fileLimit.hard, fileRun) : undefined,
);
if (verdict.kind === 'refuse' || (verdict.kind === 'raise' && process.env.EXAMHALL_BENCH_FILES_RAISED)) {
  console.error(verdict.kind === 'refuse' ? verdict.reason : 'the open-file limit could not be raised');
  process.exit(2);
}
if (verdict.kind === 'raise') {
  console.log(`raising the open-file limit to ${verdict.to} for ${candidates} event streams`);
  const again = spawnSync(
    '/bin/sh',
    [
      '-c',
      'ulimit -n "$0" && exec "$@"',
      String(verdict.to),
      process.execPath,
      ...process.execArgv,
      ...process.argv.slice(1),
    ],
    { stdio: 'inherit', env: { ...process.env, EXAMHALL_BENCH_FILES_RAISED: '1' } },
  );
  process.exit(again.status ?? 1);
}

const mixOptions: ExamBenchOptions = {
  candidates,
  apiProcesses,
  dialect: apiProcesses > 1 ? 'postgres' : values.dialect,
  loginSpreadS: num('login-spread-s'),
  startSpreadS: num('start-spread-s'),
  examS: num('exam-s'),
  ...(values['admission-rate'] !== undefined ? { admissionRate: Math.floor(num('admission-rate')) } : {}),
  sockets: Math.floor(num('sockets', 1)),
  answerEveryS: num('answer-every-s', 0.1),
  syncEveryS: num('sync-every-s', 0.1),
  frameEveryS: num('frame-every-s', 0.1),
  riskEveryS: num('risk-every-s', 0.1),
  noopPerS: num('noop-per-s', 0.1),
  assets: !values['no-assets'],
  outDir: values.out,
};
if (values['staff-load']) {
  await runStaffLoadBench(
    {
      ...mixOptions,
      ...(values.processes !== undefined ? { processes: Math.floor(num('processes', 1)) } : {}),
      aloneAfter: values['alone-after'],
      warmUp: values['warm-up'],
    },
    (line) => console.log(line),
  );
} else {
  await runExamBench(mixOptions, (line) => console.log(line));
}
