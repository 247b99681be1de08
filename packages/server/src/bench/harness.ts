/** Running the built server as its own process for benchmarks: a fresh database, candidates, attempts. */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { KINDS, requiredSteps, stepSkippable, type ExamDetail, type JobView, type StsData } from '@examhall/contract';
import { AwsClient } from 'aws4fetch';
import pg from 'pg';
import { openDb, type DbHandle } from '../db/database.js';
import { flatPhoto } from './facePhotos.js';

/**
 * The server to start: this build's, or BENCH_SERVER_MAIN (another build's dist/main.js, to compare two
 * versions of the code under the same load on a shared machine).
 */
const serverMain =
  process.env.BENCH_SERVER_MAIN ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../main.js');

/** PostgreSQL server used by benchmarks (a database of its own is created and dropped). */
export const BENCH_PG = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A database for one run. */
export interface BenchDb {
  dialect: 'sqlite' | 'postgres';
  env: Record<string, string>;
  open(): DbHandle;
  drop(): Promise<void>;
}

/** A fresh SQLite folder or PostgreSQL database. */
export async function freshDb(dialect: 'sqlite' | 'postgres'): Promise<BenchDb> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'examhall-bench-'));
  if (dialect === 'sqlite') {
    return {
      dialect,
      env: { DATA_DIR: dataDir },
      open: () => openDb({ dataDir }),
      drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const name = `examhall_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: BENCH_PG });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(BENCH_PG);
  url.pathname = `/${name}`;
  return {
    dialect,
    env: { DATA_DIR: dataDir, DATABASE_URL: url.toString() },
    open: () => openDb({ databaseUrl: url.toString() }),
    async drop() {
      const c = new pg.Client({ connectionString: BENCH_PG });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A free loopback port. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = http.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/**
 * A loopback SMS gateway: keeps the last login code per phone, and the candidates' texts by message id (a
 * repeat of an id counts once, as a gateway treats it).
 */
export async function smsInbox(): Promise<{
  url: string;
  codes: Map<string, string>;
  texts: Map<string, { phone: string; text: string }>;
  close(): void;
}> {
  const codes = new Map<string, string>();
  const texts = new Map<string, { phone: string; text: string }>();
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const m = JSON.parse(body) as { phone: string; code?: string; text?: string; message_id?: string };
      if (m.code !== undefined) codes.set(m.phone, m.code);
      if (m.message_id !== undefined) texts.set(m.message_id, { phone: m.phone, text: m.text ?? '' });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/sms`, codes, texts, close: () => server.close() };
}

/** Posts a file as a browser would (multipart, field `file`); answers `data` and the milliseconds taken. */
export async function uploadOverHttp<T>(
  base: string,
  url: string,
  token: string,
  fields: Record<string, string>,
  file: { name: string; bytes: Uint8Array },
): Promise<{ data: T; ms: number }> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', new Blob([new Uint8Array(file.bytes)]), file.name);
  const started = performance.now();
  const res = await fetch(`${base}/api${url}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const env = (await res.json()) as { status: string; msg: string; data: T };
  if (env.status !== 'success') throw new Error(`POST ${url}: ${res.status} ${env.msg}`);
  return { data: env.data, ms: performance.now() - started };
}

/**
 * CPU time (user + system) a process has used so far, in microseconds, from /proc; null where there is
 * no /proc (then the bench prints no CPU figure).
 */
export function cpuMicros(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesised command name; utime and stime are the 14th and 15th fields overall.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? Math.round((ticks * 1_000_000) / CLOCK_TICKS) : null;
  } catch {
    return null;
  }
}

/**
 * CPU time of a server process and its direct children (under the supervisor: its API and worker processes), µs;
 * null where there is no /proc.
 */
export function treeCpu(pid: number): number | null {
  const byRole = roleCpu(pid);
  return byRole === null ? null : byRole.supervisor + byRole.api + byRole.worker;
}

/**
 * CPU time of a server process and its direct children by role, µs: the supervisor itself, its API processes and its
 * worker (each child's role read from its environment, EXAMHALL_ROLE); one process alone counts as `api`. Null where
 * there is no /proc.
 */
export function roleCpu(pid: number): { supervisor: number; api: number; worker: number } | null {
  const own = cpuMicros(pid);
  if (own === null) return null;
  let children: number[] = [];
  try {
    children = execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    // pgrep answers 1 when there is no child: one process
  }
  if (children.length === 0) return { supervisor: 0, api: own, worker: 0 };
  const out = { supervisor: own, api: 0, worker: 0 };
  for (const child of children) {
    let role = 'api';
    try {
      const env = fs.readFileSync(`/proc/${child}/environ`, 'utf8').split('\0');
      role = env.find((e) => e.startsWith('EXAMHALL_ROLE='))?.slice('EXAMHALL_ROLE='.length) ?? 'api';
    } catch {
      // gone meanwhile: counted with the API processes
    }
    out[role === 'worker' ? 'worker' : 'api'] += cpuMicros(child) ?? 0;
  }
  return out;
}

/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ, 100 on every Linux platform Node runs on). */
const CLOCK_TICKS = 100;

/** A running server process. */
export interface ServerProcess {
  base: string;
  child: ChildProcess;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** Which server program to run: by default the build's `dist/main.js` (or BENCH_SERVER_MAIN). */
export interface ServerLaunch {
  /** The entry script. */
  main?: string;
  /** Node flags before it (e.g. a TypeScript loader to run the sources). */
  nodeArgs?: string[];
}

/** Starts `dist/main.js` and waits for its listening line. */
export async function startServer(
  env: Record<string, string>,
  tries = 3,
  launch: ServerLaunch = {},
): Promise<ServerProcess> {
  try {
    return await startServerOnce(env, launch);
  } catch (err) {
    // The free port was found by binding and closing it; on a busy machine another process may take it
    // before the server binds it. Then the server is started again on another port.
    if (tries > 1 && String(err).includes('EADDRINUSE')) return startServer(env, tries - 1, launch);
    throw err;
  }
}

async function startServerOnce(env: Record<string, string>, launch: ServerLaunch): Promise<ServerProcess> {
  const port = await freePort();
  // BENCH_NODE_ARGS passes flags such as --cpu-prof to the server process when looking for where time goes.
  const nodeArgs = [...(launch.nodeArgs ?? []), ...(process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean)];
  const child = spawn(process.execPath, [...nodeArgs, launch.main ?? serverMain], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      TRUST_PROXY: 'true',
      // One process unless the bench asks for the supervisor's several (PROCESSES in `env`, or BENCH_PROCESSES).
      PROCESSES: process.env.BENCH_PROCESSES ?? '1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (c: Buffer) => {
      out += c.toString();
      if (out.includes('listening on')) resolve();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    child.once('exit', (code) => reject(new Error(`server exited (${code}):\n${out}`)));
  });
  return {
    base: `http://127.0.0.1:${port}`,
    child,
    stop: (signal = 'SIGTERM') =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill(signal);
      }),
  };
}

/** Calls the API and returns `data`, throwing on an error envelope. */
export async function call<T>(
  base: string,
  method: string,
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<T> {
  const res = await fetch(`${base}/api${url}`, {
    method,
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body ? JSON.stringify(body) : null,
  });
  const env = (await res.json()) as { status: string; msg: string; data: T };
  if (env.status !== 'success') throw new Error(`${method} ${url}: ${res.status} ${env.msg}`);
  return env.data;
}

/** Follows a job through /admin/jobs/detail until it ends; answers its result, or throws when it did not finish. */
export async function jobResultOverHttp<T>(base: string, token: string, jobId: number): Promise<T> {
  for (;;) {
    const job = await call<JobView>(base, 'GET', `/admin/jobs/detail?job_id=${jobId}`, undefined, {
      authorization: `Bearer ${token}`,
    });
    if (job.state === 'done') return job.result as T;
    if (job.state !== 'queued' && job.state !== 'running') {
      throw new Error(`job ${jobId} ${job.state}: ${job.error?.message ?? ''}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * The device checks as a candidate passes them over HTTP: the steps the exam lets be skipped are skipped (a
 * bench has no camera, microphone, screen or phone), and the pledge is signed with a picture uploaded to the
 * store with the attempt's credentials; the server refuses entering the exam otherwise.
 */
export async function passChecksOverHttp(base: string, token: string, examId: number, anid: number): Promise<void> {
  await call(base, 'POST', `/monitor/start-exam?auth=${token}`, { exam_id: examId, anid });
  const detail = await call<ExamDetail>(base, 'GET', `/exam/show?id=${examId}&anid=${anid}&auth=${token}`);
  const check = (step: number, result: 'passed' | 'skipped') =>
    call(base, 'POST', `/monitor/check?auth=${token}`, {
      exam_id: examId,
      step,
      result,
      device: 'bench',
      client_id: randomUUID(),
    });
  for (const step of requiredSteps(detail)) {
    if (step.key !== 'signature') {
      if (!stepSkippable(detail, step.key)) throw new Error(`the bench cannot pass the ${step.key} check`);
      await check(step.id, 'skipped');
      continue;
    }
    const sts = await call<StsData>(base, 'GET', `/sts/get-token?exam_id=${examId}&auth=${token}`);
    const picture = flatPhoto(64, 32);
    const key = `${sts.prefix}signature-${randomUUID()}.png`;
    const aws = new AwsClient({
      accessKeyId: sts.AccessKeyId,
      secretAccessKey: sts.AccessKeySecret,
      sessionToken: sts.SecurityToken,
      region: sts.region,
      service: 's3',
    });
    const put = await aws.fetch(`${sts.endpoint}/${sts.bucket}/${key}`, {
      method: 'PUT',
      body: new Uint8Array(picture),
    });
    if (!put.ok) throw new Error(`signature upload: ${put.status} ${await put.text()}`);
    await call(base, 'POST', `/monitor/capture?auth=${token}`, {
      exam_id: examId,
      kind: 'signature',
      key,
      sha256: createHash('sha256').update(picture).digest('hex'),
      trigger_time: Date.now(),
      client_id: randomUUID(),
    });
    await check(step.id, 'passed');
  }
}

/** Invites `count` phones to the demo exam, logs each in, passes the checks and enters the exam; returns tokens. */
export async function candidatesInExam(
  server: ServerProcess,
  db: BenchDb,
  inbox: { codes: Map<string, string> },
  count: number,
): Promise<{ tokens: string[]; examId: number; questionIds: number[] }> {
  const handle = db.open();
  const exam = await handle.db.selectFrom('exams').select('id').executeTakeFirstOrThrow();
  const phones = Array.from({ length: count }, (_, i) => `1360000${String(i).padStart(4, '0')}`);
  for (const phone of phones) {
    await handle.db
      .insertInto('invitations')
      .values({ exam_id: exam.id, area_code: '86', phone, extra_minutes: 0, created_at: Date.now() })
      .execute();
  }
  await handle.db.destroy();
  const tokens: string[] = [];
  for (const [i, phone] of phones.entries()) {
    const ip = { 'x-forwarded-for': `10.${i >> 8}.${i & 255}.1` };
    await call(server.base, 'GET', `/user/send-msg?phone=${phone}`, undefined, ip);
    for (let tries = 0; !inbox.codes.has(phone) && tries < 100; tries++) await new Promise((r) => setTimeout(r, 10));
    const login = await call<{ auth: string }>(
      server.base,
      'POST',
      '/user/login',
      { phone, code: inbox.codes.get(phone) },
      ip,
    );
    tokens.push(login.auth);
  }
  for (const token of tokens) {
    const mine = await call<{ list: { anid: number }[] }>(server.base, 'GET', `/exam/index?auth=${token}`);
    const anid = mine.list[0]!.anid;
    await passChecksOverHttp(server.base, token, exam.id, anid);
    await call(server.base, 'POST', `/monitor/start-exam?auth=${token}`, { exam_id: exam.id, anid, phase: 2 });
  }
  const order = await call<{ subject_order: { id: number; type: number }[] }>(
    server.base,
    'GET',
    `/subject/order-list?exam_id=${exam.id}&auth=${tokens[0]}`,
  );
  return {
    tokens,
    examId: exam.id,
    questionIds: order.subject_order.filter((q) => KINDS.answerOfType(q.type) === 'choice').map((q) => q.id),
  };
}

/** How often a server's resident memory is read while it works. */
const SAMPLE_MS = 50;

/** A field of /proc/<pid>/status in MB (VmRSS now, VmHWM the peak since start or since the last reset). */
export function procMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error(`no ${field} in /proc/${pid}/status`);
  return Number(m[1]) / 1024;
}

/**
 * Samples the server's RSS until stopped. The bench's own event loop may be busy reading a large response when a
 * sample is due, so the kernel's high-water mark is read too, after resetting it at the start where the kernel
 * allows (clear_refs 5): the peak is the larger of the two.
 */
export function rssSampler(pid: number) {
  let hwmReset = true;
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    hwmReset = false;
  }
  let peak = procMb(pid, 'VmRSS');
  const timer = setInterval(() => (peak = Math.max(peak, procMb(pid, 'VmRSS'))), SAMPLE_MS);
  return {
    /** Stops sampling (again is harmless) and answers the peak in MB. */
    stop(): number {
      clearInterval(timer);
      return Math.max(peak, procMb(pid, 'VmRSS'), hwmReset ? procMb(pid, 'VmHWM') : 0);
    },
    /** Stops sampling without reading anything (the server may be gone). */
    cancel: () => clearInterval(timer),
  };
}
