import type { Writable } from 'node:stream';
import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import fastifyMultipart from '@fastify/multipart';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { isWebPage, type CallDef } from '@examhall/contract';
import type { JudgeQueue } from '@examhall/judge';
import Fastify, { type FastifyInstance } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config.js';
import type { Db } from './db/database.js';
import { openScheduler, type JobsSetup, type PeriodicTask } from './jobs/index.js';
import { InProcessNotifier, type ProctorNotifier } from './proctoring/notifier.js';
import { clientErrorHandler, frameworkErrors, installErrorHandler, sendError } from './http/errorHandler.js';
import { installRequestGuards } from './http/guards.js';
import { faceModelRoutes } from './http/faceModels.js';
import { noStoreForCallers } from './http/caching.js';
import { docsCsp, securityHeaders } from './http/headers.js';
import { registerWebApp } from './http/webApp.js';
import { redactUrl } from './http/tokens.js';
import { enterRequest, markBound, REQUEST_ID_HEADER, requestIdMixin, requestIdOf } from './ops/context.js';
import { databaseProbe, redisProbe, storageProbe, type Probe } from './ops/health.js';
import { Metrics, timedTask, type PoolStats } from './ops/metrics.js';
import { opsRoutes } from './ops/routes.js';
import type { RateLimiter } from './ratelimit/limiter.js';
import { adminRoutes } from './routes/admin.js';
import { ssoRoutes } from './routes/sso.js';
import { answerRoutes } from './routes/answer.js';
import { bankRoutes } from './routes/bank.js';
import { candidateRoutes } from './routes/candidates.js';
import { importRoutes } from './routes/imports.js';
import { integrationRoutes } from './routes/integrations.js';
import { jobRoutes } from './routes/jobs.js';
import { invitationRoutes } from './routes/invitations.js';
import { cepingRoutes } from './routes/ceping.js';
import { consoleRoutes } from './routes/console.js';
import { evidenceRoutes } from './routes/evidence.js';
import { examRoutes } from './routes/exam.js';
import { examEditorRoutes } from './routes/examEditor.js';
import { scheduleRoutes } from './routes/schedule.js';
import { similarityRoutes } from './routes/similarity.js';
import { gradingRoutes } from './routes/grading.js';
import { resultRoutes } from './routes/results.js';
import { analysisRoutes } from './routes/analysis.js';
import { monitorRoutes } from './routes/monitor.js';
import { proctorRoutes } from './routes/proctor.js';
import { profileRoutes } from './routes/profile.js';
import { siteRoutes } from './routes/site.js';
import { subjectRoutes } from './routes/subject.js';
import { toolsRoutes } from './routes/tools.js';
import { userRoutes } from './routes/user.js';
import { createServices, type Services } from './services/index.js';
import { ConsoleSmsSender, WebhookSmsSender, type SmsSender } from './sms/sender.js';
import { storageGateway } from './storage/gateway.js';
import { JobRepository } from './repositories/jobs.js';
import { AttemptRepository } from './repositories/attempts.js';
import { StorageUsageRepository } from './repositories/storageUsage.js';
import { freeBytesOf, LocalObjectStore, type ObjectStore } from './storage/objectStore.js';

/** What the app is built from; tests pass their own clock, log stream or SMS sender. */
export interface AppOptions {
  config: Config;
  db: Db;
  limiter: RateLimiter;
  store: ObjectStore;
  /** Group-commit batches of answer saves in flight at once (the dialect decides). */
  groupCommitLanes: number;
  /** Where code is judged. */
  judgeQueue: JudgeQueue;
  /** Where proctoring changes are announced (default: this process only). */
  notifier?: ProctorNotifier;
  clock?: () => number;
  /** How often overdue attempts are finished and quiet phones announced (default 2 s; 0 turns the sweeps off). */
  sweepIntervalMs?: number;
  /** Where jobs and periodic tasks run (default: Redis when REDIS_URL is set, else this process). */
  jobs?: JobsSetup;
  sms?: SmsSender;
  /** Where log lines go (default stdout). */
  logStream?: Writable;
  /** The database pool's connections now, for metrics (the dialect kit's `pool`). */
  poolStats?: () => PoolStats;
  /**
   * What this process does: everything (one process, or one of a Redis cluster's), or, under the embedded
   * default's supervisor, answer calls only (`api`) or run jobs and periodic tasks only (`worker`), so no job or
   * sweep runs on an event loop that answers candidates.
   */
  role?: ProcessRole;
  /** The process's metrics, when the process made them before the app (to count its parts' failures). */
  metrics?: Metrics;
}

/** What a process does (see AppOptions.role). */
export type ProcessRole = 'all' | 'api' | 'worker';

/** A registered route; `call` is its catalogue entry when it has one. */
export interface RegisteredRoute {
  method: string;
  url: string;
  call: CallDef | undefined;
}

/** The app, its services and every route it registered. */
export interface App {
  app: FastifyInstance;
  services: Services;
  routes: RegisteredRoute[];
  /** This app's metrics. */
  metrics: Metrics;
  /**
   * A worker process's own small server of /healthz, /readyz and /metrics (it answers no calls, so it listens on
   * METRICS_PORT rather than PORT); closed with the app. None in a process that answers calls.
   */
  opsApp: FastifyInstance | undefined;
  /** Marks the app as stopping: /readyz answers 503 from now on, so balancers send no more work. */
  drain(): void;
}

/** How often queued texts go out (each run sends a period's worth at the configured rate). */
const SMS_PERIOD_MS = 1_000;
/** How often webhook deliveries due are posted. */
const WEBHOOK_PERIOD_MS = 1_000;
/** How often the webhook delivery log drops what is older than it keeps. */
const WEBHOOK_PRUNE_PERIOD_MS = 3_600_000;
/** How often unfinished judge jobs are looked for in the queue (see JudgeService.requeueLost). */
const JUDGE_REQUEUE_PERIOD_MS = 10_000;
/** How often console jobs Redis lost are looked for (see JobQueue.redeliverLost). */
const JOBS_REDELIVER_PERIOD_MS = 30_000;
/** How often reminders due are queued. */
const REMIND_PERIOD_MS = 60_000;
/** How often texts' budget counters whose window has ended are removed. */
const SMS_BUDGET_PRUNE_PERIOD_MS = 3_600_000;
/** How often staff login tries whose window ended long ago are removed. */
const LOGIN_TRIES_SWEEP_PERIOD_MS = 3_600_000;
/** How often questions staged by imports that ended are looked for. */
const STAGED_IMPORTS_SWEEP_PERIOD_MS = 3_600_000;

/** The Fastify instance: request ids, the logger with its redactions, the schema compilers' home. */
function createFastify(config: Config, logStream: AppOptions['logStream']): FastifyInstance {
  return Fastify({
    trustProxy: config.trustProxy,
    bodyLimit: 2 * 1024 * 1024,
    // Errors before routing and before Fastify sees the request keep the envelope too.
    frameworkErrors,
    clientErrorHandler,
    // Every request gets an id (a well-formed X-Request-Id from the caller, else a new one); see ops/context.ts.
    genReqId: requestIdOf,
    requestIdHeader: false,
    // The request's own logger has the id bound; the mixin adds it to every other line written during it.
    childLoggerFactory: (logger, bindings, childOpts) => markBound(logger.child(bindings, childOpts)),
    logger: {
      level: config.logLevel,
      mixin: requestIdMixin,
      ...(logStream ? { stream: logStream } : {}),
      // Tokens travel in the query string, cookies and the Authorization header: none of them reach a log line.
      redact: {
        paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
        censor: '[redacted]',
      },
      serializers: {
        req: (req: { method: string; url: string; ip?: string }) => ({
          method: req.method,
          url: redactUrl(req.url),
          ip: req.ip,
        }),
      },
    },
  });
}

/** Cookies, forms, multipart with its limits, and the OpenAPI page at /docs. */
async function registerPlugins(app: FastifyInstance, config: Config): Promise<void> {
  await app.register(fastifyCookie);
  await app.register(fastifyFormbody);
  await app.register(fastifyMultipart, {
    limits: { fileSize: 25 * 1024 * 1024, files: 1, fields: 10, fieldSize: 1024 },
  });
  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'Examhall API',
        version: '0.1.0',
        description: 'Online written-test platform for campus recruitment',
      },
      servers: [{ url: config.apiPrefix || '/' }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, {
    routePrefix: '/docs',
    // The docs page gets its own policy (hashes of its inline scripts, if any), adjusted to ours.
    staticCSP: true,
    transformStaticCSP: docsCsp(config),
  });
}

/** Every area's routes, under the API prefix. */
function apiRoutes(api: FastifyInstance, services: Services, config: Config): void {
  userRoutes(api, services, config);
  siteRoutes(api, services);
  examRoutes(api, services);
  monitorRoutes(api, services);
  evidenceRoutes(api, services);
  subjectRoutes(api, services, config);
  answerRoutes(api, services);
  cepingRoutes(api, services);
  profileRoutes(api, services);
  adminRoutes(api, services, config);
  ssoRoutes(api, services, config);
  proctorRoutes(api, services);
  consoleRoutes(api, services);
  examEditorRoutes(api, services);
  scheduleRoutes(api, services);
  similarityRoutes(api, services);
  gradingRoutes(api, services);
  resultRoutes(api, services);
  analysisRoutes(api, services);
  bankRoutes(api, services);
  importRoutes(api, services);
  jobRoutes(api, services);
  invitationRoutes(api, services);
  candidateRoutes(api, services);
  integrationRoutes(api, services);
  toolsRoutes(api, services);
}

/**
 * The periodic tasks, each once per period across the cluster: the server finishes attempts whose time is up,
 * browser or not, and announces phones that went quiet so the desktop and the console learn within seconds; it
 * sends queued texts at the configured rate and queues reminders (and drops texts' budget counters past their
 * window); it posts webhook deliveries due and keeps their log to its days; it queues again judge jobs and console
 * jobs the queues lost; it checks the exam frames browsers flagged and a sample of the others with its face engine;
 * it forgets staff login tries whose window ended long ago and questions staged by imports that ended unpublished.
 */
export function periodicTasks(services: Services, db: Db, sweepEvery: number): PeriodicTask[] {
  return [
    { name: 'attempts.sweep-overdue', periodMs: sweepEvery, run: () => services.attempts.sweepOverdue() },
    { name: 'evidence.sweep-phones', periodMs: sweepEvery, run: () => services.phone.sweep() },
    { name: 'sms.dispatch', periodMs: SMS_PERIOD_MS, run: () => services.smsDispatch.dispatch(SMS_PERIOD_MS) },
    { name: 'sms.remind', periodMs: REMIND_PERIOD_MS, run: () => services.smsDispatch.remind() },
    {
      name: 'sms.budget-prune',
      periodMs: SMS_BUDGET_PRUNE_PERIOD_MS,
      run: () => services.smsBudget.prune(db),
    },
    { name: 'webhooks.deliver', periodMs: WEBHOOK_PERIOD_MS, run: () => services.webhooks.deliver() },
    { name: 'webhooks.prune', periodMs: WEBHOOK_PRUNE_PERIOD_MS, run: () => services.webhooks.prune() },
    { name: 'judge.requeue', periodMs: JUDGE_REQUEUE_PERIOD_MS, run: () => services.judge.requeueLost() },
    { name: 'jobs.redeliver', periodMs: JOBS_REDELIVER_PERIOD_MS, run: () => services.jobQueue.redeliverLost() },
    { name: 'face.verify', periodMs: sweepEvery, run: () => services.faceVerification.sweep() },
    {
      name: 'bank.sweep-staged-imports',
      periodMs: STAGED_IMPORTS_SWEEP_PERIOD_MS,
      run: () => services.imports.sweepStaged(),
    },
    {
      name: 'staff.sweep-login-tries',
      periodMs: LOGIN_TRIES_SWEEP_PERIOD_MS,
      run: () => services.staffLogin.sweepLoginTries(),
    },
  ];
}

/** Builds the Fastify app: API under the prefix, OpenAPI at /docs, the web app for everything else. */
export async function buildApp(opts: AppOptions): Promise<App> {
  const { config } = opts;
  const app = createFastify(config, opts.logStream);
  // First of all hooks: everything after runs under the request's id, and the answer names it.
  app.addHook('onRequest', (request, reply, done) => {
    reply.raw.setHeader(REQUEST_ID_HEADER, request.id);
    enterRequest(request, done);
  });
  const metrics = opts.metrics ?? new Metrics();
  let draining = false;
  app.addHook('onResponse', (request, reply, done) => {
    const call = (request.routeOptions.config as { call?: CallDef } | undefined)?.call;
    const label = call?.path ?? request.routeOptions.url ?? 'unmatched';
    metrics.request(label, request.method, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandler(app);
  installRequestGuards(app, config.publicUrl);
  const routes: RegisteredRoute[] = [];
  app.addHook('onRoute', (r) => {
    const call = (r.config as { call?: CallDef } | undefined)?.call;
    for (const method of [r.method].flat()) if (method !== 'HEAD') routes.push({ method, url: r.url, call });
  });

  securityHeaders(app, config);
  noStoreForCallers(app);
  await registerPlugins(app, config);

  const clock = opts.clock ?? Date.now;
  const sms =
    opts.sms ??
    (config.sms.provider === 'webhook' && config.sms.webhookUrl
      ? new WebhookSmsSender(config.sms.webhookUrl)
      : new ConsoleSmsSender(app.log));
  const jobsSetup: JobsSetup = { redisUrl: config.redisUrl, ...opts.jobs, log: app.log, metrics };
  const services = createServices({
    config,
    db: opts.db,
    limiter: opts.limiter,
    sms,
    store: opts.store,
    clock,
    log: app.log,
    groupCommitLanes: opts.groupCommitLanes,
    judgeQueue: opts.judgeQueue,
    notifier: opts.notifier ?? new InProcessNotifier(),
    jobs: jobsSetup,
    metrics,
  });
  const jobRepo = new JobRepository(opts.db);
  const attemptRepo = new AttemptRepository(opts.db);
  const reserveBytes = opts.store instanceof LocalObjectStore ? config.storageReserveBytes : 0;
  metrics.readFrom({
    jobDepths: () => jobRepo.depths(),
    judgeWaiting: () => services.judge.waiting,
    pool: opts.poolStats ?? (() => ({ total: 0 })),
    candidatesInExam: () => attemptRepo.inExam(),
    admissionQueue: () => services.admission.queued(),
    disk: async () => ({ freeBytes: await freeBytesOf(config.dataDir), reserveBytes }),
  });

  // Operations endpoints at the root, outside the API prefix (load balancers and Prometheus call them).
  const redis = config.redisUrl ? redisProbe(config.redisUrl) : undefined;
  const probes: Probe[] = [databaseProbe(opts.db), ...(redis ? [redis] : []), storageProbe(opts.store)];
  if (redis) app.addHook('onClose', async () => redis.close());
  const ops = { metrics, probes, metricsToken: config.metricsToken, draining: () => draining };
  opsRoutes(app, ops);
  const role = opts.role ?? 'all';
  let opsApp: FastifyInstance | undefined;
  if (role === 'worker') {
    const own = Fastify({ logger: false });
    opsRoutes(own, ops);
    app.addHook('onClose', async () => own.close());
    opsApp = own;
  }

  await app.register(async (api) => apiRoutes(api, services, config), { prefix: config.apiPrefix });

  // The local store's S3-style endpoint, outside the API prefix (S3-compatible storage serves itself).
  if (opts.store instanceof LocalObjectStore)
    await storageGateway(
      app,
      opts.store,
      config.storageMaxObjectBytes,
      new StorageUsageRepository(opts.db),
      services.notifier,
    );

  faceModelRoutes(app);
  const web = await registerWebApp(app, config);
  app.setNotFoundHandler((request, reply) => {
    const pathOnly = request.url.split('?')[0] ?? '';
    const isApi =
      config.apiPrefix === '' || pathOnly === config.apiPrefix || pathOnly.startsWith(`${config.apiPrefix}/`);
    const isAsset = /\.[A-Za-z0-9]+$/.test(pathOnly);
    if (isApi || isAsset || !web.served || (request.method !== 'GET' && request.method !== 'HEAD')) {
      return sendError(reply, 404, 'not_found', `no such path: ${request.method} ${pathOnly}`);
    }
    // The web app routes on the client and shows its own 404 page for unknown paths; the status says so too.
    return web.sendPage(request, reply.code(isWebPage(pathOnly) ? 200 : 404));
  });

  // Judge jobs started here finish and have their outcome recorded before the database goes.
  app.addHook('onClose', async () => {
    await services.judge.drain();
  });
  // Login codes still waiting for their turn are recorded as unsent, so their candidates may ask again at once.
  app.addHook('onClose', async () => {
    await services.candidateAuth.close();
  });
  // The face engine's worker threads would otherwise keep the process alive.
  app.addHook('onClose', async () => {
    await services.faceCheck.close();
  });

  // Jobs run from the start: queued ones (another process's, or a dead runner's) are resumed. An API process under
  // the supervisor only queues them: the worker process runs them.
  app.addHook('onReady', async () => {
    if (role !== 'api') await services.jobQueue.start();
  });
  app.addHook('onClose', async () => {
    await services.jobQueue.close();
  });

  // The periodic tasks (periodicTasks), in every process but an API process under the supervisor.
  const sweepEvery = opts.sweepIntervalMs ?? 2_000;
  if (sweepEvery > 0 && role !== 'api') {
    const scheduler = openScheduler(jobsSetup);
    app.addHook('onReady', async () => {
      scheduler.start(periodicTasks(services, opts.db, sweepEvery).map((task) => timedTask(task, metrics)));
    });
    app.addHook('onClose', async () => {
      await scheduler.close();
    });
  }

  return {
    app,
    services,
    routes,
    metrics,
    opsApp,
    drain: () => {
      draining = true;
    },
  };
}
