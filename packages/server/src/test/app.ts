/** A whole app on a real database of one dialect, with a controllable clock and a real SMS webhook. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { STAFF_ROLES, type StaffRole } from '@examhall/contract';
import { LocalJudgeQueue, type JudgeQueue } from '@examhall/judge';
import { buildApp, type ProcessRole, type RegisteredRoute } from '../app.js';
import { loadConfig, type Config } from '../config.js';
import { migrate, openDb, type DbTarget } from '../db/database.js';
import type { JobsSetup } from '../jobs/index.js';
import type { Metrics } from '../ops/metrics.js';
import type { ProctorNotifier } from '../proctoring/notifier.js';
import { MemoryRateLimiter, type RateLimiter } from '../ratelimit/limiter.js';
import { seedDemo } from '../services/demoSeed.js';
import type { Services } from '../services/index.js';
import { LOCAL_BUCKET, LOCAL_REGION, localStorageEndpoint } from '../storage/gateway.js';
import { LocalCredentials } from '../storage/localCredentials.js';
import { LocalObjectStore, type ObjectStore } from '../storage/objectStore.js';
import { openTestDb, type TestDb, type TestDialect } from './db.js';
import { startSmsReceiver, type SmsReceiver } from './smsReceiver.js';

/** Options of a test app. */
export interface TestAppOptions {
  /** Extra environment variables. */
  env?: Record<string, string>;
  /** A limiter other than the in-process one (e.g. Redis). */
  limiter?: RateLimiter;
  /** Where proctoring changes are announced (default: in this process); the caller closes it. */
  notifier?: ProctorNotifier;
  /** Run the overdue sweeper this often (off by default; tests call it directly). */
  sweepIntervalMs?: number;
  /** The app's object storage instead of the local store (e.g. S3ObjectStore on s3rver); `store` is then unused. */
  objectStore?: ObjectStore;
  /** PostgreSQL to use instead of the test server (e.g. a proxy in front of it). */
  databaseUrl?: string;
  /** The judge queue instead of an in-process one of the app's own (e.g. BullMQ on Redis); the caller closes it. */
  judgeQueue?: JudgeQueue;
  /**
   * DATA_DIR as in production, which the caller owns: the SQLite database (on SQLite) and the local store
   * (`objects/`) live there, so they share its disk. Default: SQLite in memory and a temp folder for the store.
   */
  dataDir?: string;
  /** Where jobs and periodic tasks run (default: the app's own choice, in this process). */
  jobs?: JobsSetup;
  /** Hears every statement the app runs on its database (not with `dataDir`). */
  log?: DbTarget['log'];
  /** What the app's process does (AppOptions.role; default: everything). */
  role?: ProcessRole;
}

/** A running test app. */
export interface TestApp {
  app: FastifyInstance;
  services: Services;
  routes: RegisteredRoute[];
  /** This app's metrics. */
  metrics: Metrics;
  /** A worker process's own server of /healthz, /readyz and /metrics (App.opsApp); none for other roles. */
  opsApp: FastifyInstance | undefined;
  /** Marks the app as stopping (readiness answers 503). */
  drain(): void;
  config: Config;
  db: TestDb;
  sms: SmsReceiver;
  /** Every log line written so far. */
  logs: string[];
  /** The clock the app reads; move it with `advance`. */
  now(): number;
  advance(ms: number): void;
  /** Object storage of this app. */
  store: LocalObjectStore;
  /** Seeds the demo exam invited to `phone`. */
  seed(phone?: string): Promise<{ examId: number; anid: number }>;
  /** Invites another candidate (+86 `phone`) to an exam, with extra minutes; answers the invitation id (anid). */
  invite(examId: number, phone: string, extraMinutes?: number): Promise<number>;
  /** Creates a team named `name`; answers its id. */
  team(name: string): Promise<number>;
  /** Logs a candidate in by SMS and returns the token. */
  loginCandidate(phone: string, ip?: string): Promise<string>;
  /**
   * A staff token of `role`: the first admin (TEST_ADMIN), or a member of that role the admin creates through
   * the staff call on first use. With `examId`, a proctor or grader is also assigned to that exam (access
   * per exam: unassigned, they reach none).
   */
  loginStaff(role: StaffRole, opts?: { examId?: number }): Promise<string>;
  close(): Promise<void>;
}

/** The TOTP key of every test app (TOTP_KEY), so that no test generates one in DATA_DIR. */
export const TEST_TOTP_KEY = 'dGVzdC1vbmx5LXRvdHAta2V5LW9mLTMyLWJ5dGVzISE=';

/** The first admin of every test app (see `loginStaff`). */
export const TEST_ADMIN = { phone: '13900000000', password: 'admin-password' };

/** Parses an envelope answer. */
export function body<T = unknown>(
  res: LightMyRequestResponse,
): { status: string; msg: string; code?: string; data: T } {
  return res.json();
}

/**
 * Makes `app.inject` send `Origin: origin` with requests that carry a cookie and say nothing of their origin, as
 * a browser does on the site's own pages; a test of cross-site requests sets its own `Origin` or `Referer`.
 */
function sendSiteOrigin(app: FastifyInstance, origin: string): void {
  const inject = app.inject.bind(app) as (opts?: InjectOptions | string) => unknown;
  const withOrigin = (opts: InjectOptions | string): InjectOptions | string => {
    if (typeof opts === 'string') return opts;
    const headers = { ...(opts.headers ?? {}) } as Record<string, unknown>;
    const names = Object.keys(headers).map((k) => k.toLowerCase());
    const hasCookie = opts.cookies !== undefined || names.includes('cookie');
    if (!hasCookie || names.includes('origin') || names.includes('referer')) return opts;
    return { ...opts, headers: { ...headers, origin } as InjectOptions['headers'] };
  };
  (app as { inject: unknown }).inject = (opts?: InjectOptions | string) =>
    opts === undefined ? inject() : inject(withOrigin(opts));
}

/** A migrated SQLite database in `dataDir`, where the server keeps it (DATA_DIR/examhall.sqlite). */
async function openDataDirDb(dataDir: string): Promise<TestDb> {
  const handle = openDb({ dataDir });
  await migrate(handle);
  return { handle, drop: () => handle.db.destroy() };
}

/** Starts an app on a fresh database of `dialect`. */
export async function createTestApp(dialect: TestDialect, opts: TestAppOptions = {}): Promise<TestApp> {
  const db =
    opts.dataDir !== undefined && dialect === 'sqlite'
      ? await openDataDirDb(opts.dataDir)
      : await openTestDb(dialect, undefined, opts.databaseUrl, opts.log);
  const sms = await startSmsReceiver();
  const logs: string[] = [];
  const logStream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      logs.push(chunk.toString());
      cb();
    },
  });
  let now = Date.UTC(2026, 10, 21, 2, 0, 0);
  const clock = () => now;
  const config = loadConfig({
    SMS_PROVIDER: 'webhook',
    SMS_WEBHOOK_URL: sms.url,
    LOG_LEVEL: 'info',
    WEB_DIST: '/nonexistent',
    // Tests log staff in, and open streams, many times from one address: the limits per address and token
    // get their own tests (routes/staffSecurity.test.ts), which set them low.
    STAFF_LOGIN_IP_LIMIT: '1000000',
    SSE_MAX_PER_TOKEN: '1000',
    SSE_MAX_PER_IP: '1000000',
    // The clock stands still in tests, so a paced entry would wait for ever: admission has its own tests.
    ADMISSION_RATE: '0',
    // Likewise login codes go out in their request, each at once: pacing has its own tests.
    SMS_LOGIN_RATE: '0',
    // The store's disk reserve would make every test depend on the free space of the machine: the reserve has its
    // own test (storage/reserve.test.ts), on a small disk of its own.
    STORAGE_RESERVE_MB: '0',
    ...(opts.dataDir !== undefined ? { DATA_DIR: opts.dataDir } : {}),
    TOTP_KEY: TEST_TOTP_KEY,
    ...opts.env,
  });
  const limiter = opts.limiter ?? new MemoryRateLimiter(clock);
  const ownQueue = opts.judgeQueue ? null : new LocalJudgeQueue(2);
  const judgeQueue = opts.judgeQueue ?? ownQueue!;
  const storeDir =
    opts.dataDir !== undefined
      ? path.join(opts.dataDir, 'objects')
      : fs.mkdtempSync(path.join(os.tmpdir(), 'examhall-store-'));
  const store = new LocalObjectStore(
    storeDir,
    new LocalCredentials(db.handle.db, clock, localStorageEndpoint(config), LOCAL_BUCKET, LOCAL_REGION),
    { reserveBytes: config.storageReserveBytes },
  );
  const { app, services, routes, metrics, opsApp, drain } = await buildApp({
    config,
    db: db.handle.db,
    limiter,
    store: opts.objectStore ?? store,
    groupCommitLanes: db.handle.kit.groupCommitLanes,
    judgeQueue,
    clock,
    logStream,
    sweepIntervalMs: opts.sweepIntervalMs ?? 0,
    poolStats: db.handle.kit.pool,
    ...(opts.notifier ? { notifier: opts.notifier } : {}),
    ...(opts.jobs ? { jobs: opts.jobs } : {}),
    ...(opts.role ? { role: opts.role } : {}),
  });
  await app.ready();
  sendSiteOrigin(app, new URL(config.publicUrl).origin);
  return {
    app,
    services,
    routes,
    metrics,
    opsApp,
    drain,
    config,
    db,
    sms,
    logs,
    store,
    now: () => now,
    advance: (ms) => {
      now += ms;
    },
    async loginCandidate(phone, ip = '10.0.0.1') {
      const send = await app.inject({ method: 'GET', url: `/api/user/send-msg?phone=${phone}`, remoteAddress: ip });
      if (send.statusCode !== 200) throw new Error(`send-msg failed: ${send.body}`);
      const res = await app.inject({
        method: 'POST',
        url: '/api/user/login',
        payload: { phone, code: sms.lastCode(phone) },
        remoteAddress: ip,
      });
      if (res.statusCode !== 200) throw new Error(`login failed: ${res.body}`);
      return body<{ auth: string }>(res).data.auth;
    },
    async loginStaff(role, opts = {}) {
      await services.staff.ensureAdmin(TEST_ADMIN.phone, TEST_ADMIN.password);
      const admin = (await services.staffLogin.login(TEST_ADMIN.phone, TEST_ADMIN.password, { ip: '127.0.0.1' })).token;
      if (role === 'admin') return admin;
      const phone = `136000000${STAFF_ROLES.indexOf(role)}0`;
      const exists = await db.handle.db.selectFrom('staff').select('id').where('phone', '=', phone).executeTakeFirst();
      if (!exists) {
        const res = await app.inject({
          method: 'POST',
          url: '/api/admin/staff',
          headers: { authorization: `Bearer ${admin}` },
          payload: { phone, area_code: '86', name: role, role, password: TEST_ADMIN.password },
        });
        if (res.statusCode !== 200) throw new Error(`creating a ${role} failed: ${res.body}`);
      }
      if (opts.examId !== undefined && (role === 'proctor' || role === 'grader')) {
        const member = await db.handle.db
          .selectFrom('staff')
          .select('id')
          .where('phone', '=', phone)
          .executeTakeFirstOrThrow();
        await db.handle.db
          .insertInto('exam_staff')
          .values({ exam_id: opts.examId, staff_id: member.id, role, created_at: now })
          .onConflict((oc) => oc.doNothing())
          .execute();
      }
      return (await services.staffLogin.login(phone, TEST_ADMIN.password, { ip: '127.0.0.1' })).token;
    },
    async close() {
      await app.close();
      await ownQueue?.close();
      await limiter.close();
      await sms.close();
      await db.drop();
      if (opts.dataDir === undefined) fs.rmSync(storeDir, { recursive: true, force: true });
    },
    async seed(phone = '13800138000') {
      const seeded = await seedDemo(db.handle.db, store, phone, now);
      if (!seeded) throw new Error('the database already has an exam');
      return seeded;
    },
    async invite(examId, phone, extraMinutes = 0) {
      const row = await db.handle.db
        .insertInto('invitations')
        .values({ exam_id: examId, area_code: '86', phone, extra_minutes: extraMinutes, created_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },
    async team(name) {
      const row = await db.handle.db
        .insertInto('teams')
        .values({ name, created_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },
  };
}
