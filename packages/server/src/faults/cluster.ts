/**
 * A small cluster for fault tests, every part a real one: API processes (CLUSTER=true, run from the sources) on one
 * PostgreSQL database, a Redis server of the cluster's own and s3rver, each part reached through a TCP proxy a test
 * cuts to take it away. The demo exam is seeded and candidates are invited; `candidates` logs them in and enters the
 * exam over HTTP.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  DEFAULT_AREA_CODE,
  requiredSteps,
  stepSkippable,
  type ExamDetail,
  type MonitorStepKey,
} from '@examhall/contract';
import { startRedis, startS3rver } from '../bench/clusterParts.js';
import { freshDb, smsInbox, startServer, type BenchDb, type ServerProcess } from '../bench/harness.js';
import { flatPhoto } from '../bench/facePhotos.js';
import { loadConfig } from '../config.js';
import { migrate } from '../db/database.js';
import { InvitationRepository } from '../repositories/invitations.js';
import { seedDemo } from '../services/demoSeed.js';
import { attemptPrefix } from '../services/chain.js';
import { S3ObjectStore } from '../storage/s3ObjectStore.js';
import { tsxLoader, until } from '../test/processes.js';
import { startTcpProxy, type TcpProxy } from '../test/tcpProxy.js';

const here = path.dirname(fileURLToPath(import.meta.url));

/** How long a fault lasts, in seconds: FAULT_SECONDS scales every fault test (CI runs them short). */
export function faultSeconds(fullScale: number, ci: number): number {
  const set = Number(process.env.FAULT_SECONDS);
  if (Number.isFinite(set) && set > 0) return set;
  return process.env.FAULT_FULL === 'true' ? fullScale : ci;
}

/** How many simulated candidates: FAULT_CANDIDATES, or `ci`. */
export function faultCandidates(ci: number): number {
  const set = Number(process.env.FAULT_CANDIDATES);
  return Number.isInteger(set) && set > 0 ? set : ci;
}

/** The cluster's first admin. */
const FAULT_ADMIN = { phone: '13900000000', password: 'fault-admin-password' };

/** A candidate inside the exam. */
export interface ExamCandidate {
  phone: string;
  ip: string;
  token: string;
  attemptId: number;
}

/** A running cluster. */
export interface Cluster {
  db: BenchDb;
  examId: number;
  /** The proxies a test cuts: in front of PostgreSQL, Redis and the store. */
  proxies: { postgres: TcpProxy; redis: TcpProxy; store: TcpProxy };
  /** The cluster's Redis straight (not through the proxy), e.g. to empty it as a restart without persistence does. */
  redisUrl: string;
  /** The API processes started so far (a killed one stays in the list). */
  apis: ServerProcess[];
  /** The environment every process of the cluster gets. */
  env: Record<string, string>;
  /** The store as the server sees it, straight to s3rver (not through the proxy). */
  store: S3ObjectStore;
  /** The store through its proxy, as browsers reach it (cut with the proxy). */
  storeThroughProxy: S3ObjectStore;
  /** Starts one more API process. */
  startApi(): Promise<ServerProcess>;
  /** Starts a judge worker (the judge package's command) with short lock and stall intervals. */
  startJudgeWorker(): Promise<ChildProcess>;
  /** Logs the first admin in through `base`; answers the staff token. */
  staffToken(base: string): Promise<string>;
  /** Logs `count` invited candidates in through `api` and enters each into the exam. */
  candidates(api: ServerProcess, count: number): Promise<ExamCandidate[]>;
  close(): Promise<void>;
}

/** An error envelope: the HTTP status and the catalogue code (a network failure throws the fetch error instead). */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string | undefined,
    message: string,
  ) {
    super(message);
  }
}

/** Calls the API over HTTP (a candidate's `token` as `auth`, a staff `bearer`) and answers `data`, throwing on an error envelope. */
export async function apiCall<T>(
  base: string,
  method: 'GET' | 'POST',
  url: string,
  opts: { body?: unknown; ip?: string; token?: string; bearer?: string } = {},
): Promise<T> {
  const sep = url.includes('?') ? '&' : '?';
  const res = await fetch(`${base}/api${url}${opts.token ? `${sep}auth=${opts.token}` : ''}`, {
    method,
    headers: {
      ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(opts.ip ? { 'x-forwarded-for': opts.ip } : {}),
      ...(opts.bearer ? { authorization: `Bearer ${opts.bearer}` } : {}),
    },
    body: opts.body !== undefined ? JSON.stringify(opts.body) : null,
    signal: AbortSignal.timeout(15_000),
  });
  const env = (await res.json()) as { status: string; msg: string; code?: string; data: T };
  if (env.status !== 'success')
    throw new ApiFailure(res.status, env.code, `${method} ${url}: ${res.status} ${env.code ?? ''} ${env.msg}`);
  return env.data;
}

/** An API process's readiness status code (0 when it does not answer within 5 s). */
export async function readyStatus(base: string): Promise<number> {
  try {
    return (await fetch(`${base}/readyz`, { signal: AbortSignal.timeout(5_000) })).status;
  } catch {
    return 0;
  }
}

/** Starts the parts, one API process, seeds the demo exam and invites `invited` candidates. */
export async function startCluster(invited: number): Promise<Cluster> {
  const closers: (() => Promise<unknown>)[] = [];
  const close = async () => {
    for (const c of closers.splice(0).reverse()) await c().catch(() => undefined);
  };
  try {
    const db = await freshDb('postgres');
    closers.push(() => db.drop());
    const pgUrl = new URL(db.env.DATABASE_URL!);
    const pgProxy = await startTcpProxy(pgUrl.hostname, Number(pgUrl.port || 5432));
    closers.push(() => pgProxy.close());
    const viaProxy = new URL(pgUrl);
    viaProxy.host = `127.0.0.1:${pgProxy.port}`;

    const redis = await startRedis();
    closers.push(() => redis.stop());
    const redisProxy = await startTcpProxy('127.0.0.1', redis.port);
    closers.push(() => redisProxy.close());

    const s3 = await startS3rver();
    closers.push(() => s3.close());
    const s3Port = s3.port;
    const storeProxy = await startTcpProxy('127.0.0.1', s3Port);
    closers.push(() => storeProxy.close());
    const s3Env = s3.env;
    const store = new S3ObjectStore(loadConfig({ ...s3Env, S3_ENDPOINT: `http://127.0.0.1:${s3Port}` }).s3!);

    const sms = await smsInbox();
    closers.push(async () => sms.close());
    const env: Record<string, string> = {
      ...db.env,
      CLUSTER: 'true',
      // Every process reads the TOTP secrets another encrypted: one key for all.
      TOTP_KEY: randomBytes(32).toString('base64'),
      DATABASE_URL: viaProxy.toString(),
      REDIS_URL: `redis://127.0.0.1:${redisProxy.port}`,
      S3_ENDPOINT: `http://127.0.0.1:${storeProxy.port}`,
      ...s3Env,
      SMS_PROVIDER: 'webhook',
      SMS_WEBHOOK_URL: sms.url,
      SMS_RATE: '10000',
      WEB_DIST: '/nonexistent',
      ADMISSION_RATE: '0',
      SHUTDOWN_GRACE_MS: '2000',
      LOG_LEVEL: 'error',
      ADMIN_PHONE: FAULT_ADMIN.phone,
      ADMIN_PASSWORD: FAULT_ADMIN.password,
    };
    const apis: ServerProcess[] = [];
    const startApi = async () => {
      const api = await startServer(env, 3, {
        main: path.resolve(here, '../main.ts'),
        nodeArgs: ['--import', tsxLoader],
      });
      apis.push(api);
      closers.push(() => api.stop('SIGKILL'));
      return api;
    };
    await startApi();

    // The first process migrated the database; the demo exam is seeded as `npm start` seeds it.
    const handle = db.open();
    await migrate(handle);
    const phones = Array.from({ length: invited }, (_, i) => `1350000${String(i).padStart(4, '0')}`);
    const seeded = await seedDemo(handle.db, store, phones[0]!, Date.now());
    if (!seeded) throw new Error('the demo exam was not seeded');
    await new InvitationRepository(handle.db).inviteMissing(
      seeded.examId,
      phones.map((phone) => ({ area_code: DEFAULT_AREA_CODE, phone })),
      Date.now(),
    );
    await handle.db.destroy();
    const examId = seeded.examId;

    const judgeCli = path.resolve(here, '../../../judge/src/cli.ts');
    const startJudgeWorker = async () => {
      const child = spawn(
        process.execPath,
        [
          '--import',
          tsxLoader,
          judgeCli,
          'worker',
          '--redis',
          env.REDIS_URL!,
          '--concurrency',
          '1',
          '--lock-duration',
          '3000',
          '--stalled-interval',
          '1000',
        ],
        { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, EXAMHALL_JUDGE_CONCURRENCY: '1' } },
      );
      closers.push(async () => void child.kill('SIGKILL'));
      let out = '';
      await new Promise<void>((resolve, reject) => {
        child.stdout!.on('data', (c: Buffer) => {
          out += c.toString();
          if (out.includes('ready')) resolve();
        });
        child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
        child.once('exit', (code) => reject(new Error(`judge worker exited (${code}):\n${out}`)));
      });
      return child;
    };

    let next = 0;
    const candidates = async (api: ServerProcess, count: number): Promise<ExamCandidate[]> => {
      const out: ExamCandidate[] = [];
      for (let k = 0; k < count; k++) {
        const i = next++;
        const phone = phones[i]!;
        const ip = `10.9.${i >> 8}.${i & 255}`;
        await apiCall(api.base, 'GET', `/user/send-msg?phone=${phone}`, { ip });
        const code = await until(async () => sms.codes.get(phone), 10_000, 10);
        const { auth: token } = await apiCall<{ auth: string }>(api.base, 'POST', '/user/login', {
          ip,
          body: { phone, code },
        });
        const mine = await apiCall<{ list: { anid: number; id: number }[] }>(api.base, 'GET', '/exam/index', {
          token,
        });
        const anid = mine.list.find((e) => e.id === examId)?.anid ?? mine.list[0]!.anid;
        const started = await apiCall<{ attempt: { id: number; exam_id: number } }>(
          api.base,
          'POST',
          '/monitor/start-exam',
          { token, body: { exam_id: examId, anid } },
        );
        const detail = await apiCall<ExamDetail>(api.base, 'GET', `/exam/show?id=${examId}&anid=${anid}`, { token });
        for (const step of requiredSteps(detail)) {
          const check = (result: 'passed' | 'skipped') =>
            apiCall(api.base, 'POST', '/monitor/check', {
              token,
              body: { exam_id: examId, step: step.id, result, device: 'fault test', client_id: randomUUID() },
            });
          if (step.key !== 'signature') {
            if (!stepSkippable(detail, step.key as MonitorStepKey)) throw new Error(`cannot pass ${step.key}`);
            await check('skipped');
            continue;
          }
          // The pledge: the picture goes to the store (as the browser puts it) and is recorded.
          const key = `${attemptPrefix(started.attempt)}signature-${randomUUID()}.png`;
          const { sha256 } = await store.put(key, flatPhoto(64, 32));
          await apiCall(api.base, 'POST', '/monitor/capture', {
            token,
            body: {
              exam_id: examId,
              kind: 'signature',
              key,
              sha256,
              trigger_time: Date.now(),
              client_id: randomUUID(),
            },
          });
          await check('passed');
        }
        await apiCall(api.base, 'POST', '/monitor/start-exam', { token, body: { exam_id: examId, anid, phase: 2 } });
        out.push({ phone, ip, token, attemptId: started.attempt.id });
      }
      return out;
    };

    return {
      db,
      examId,
      proxies: { postgres: pgProxy, redis: redisProxy, store: storeProxy },
      redisUrl: `redis://127.0.0.1:${redis.port}`,
      apis,
      env,
      store,
      storeThroughProxy: new S3ObjectStore(
        loadConfig({ ...s3Env, S3_ENDPOINT: `http://127.0.0.1:${storeProxy.port}` }).s3!,
      ),
      startApi,
      startJudgeWorker,
      candidates,
      staffToken: async (base) =>
        (await apiCall<{ token: string }>(base, 'POST', '/admin/auth/login', { body: FAULT_ADMIN, ip: '10.8.0.1' }))
          .token,
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}
