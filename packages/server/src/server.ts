import { buildApp, type ProcessRole } from './app.js';
import type { IpcChannel } from './cluster/ipc.js';
import type { Config } from './config.js';
import { countDbFailures, countStoreFailures } from './ops/failures.js';
import { Metrics } from './ops/metrics.js';
import { shutdownOnSignals } from './ops/shutdown.js';
import { openRuntime } from './runtime.js';
import { DEMO_EXAM_NAME, seedDemo } from './services/demoSeed.js';

/** What `npm start` prints once it listens: where to go and how to log in. */
export function banner(config: Config, address: string, dialect: string, seeded: boolean, processes = 1): string {
  const url = config.publicUrl;
  const lines = [
    '',
    `Examhall is listening on ${address} (database: ${dialect}${
      processes > 1 ? `; ${processes} API processes and a worker process` : ''
    }; Node.js ${process.version})`,
    `  Candidates:  ${url}/`,
    `  Staff:       ${url}/admin`,
    `  API docs:    ${url}/docs`,
    seeded ? `  Demo exam "${DEMO_EXAM_NAME}" seeded.` : '',
    `  Log in as a candidate with phone ${config.demoPhone} (+86); ` +
      (config.sms.provider === 'console'
        ? 'the SMS code is printed in this log ("SMS code for ...").'
        : `the SMS code is POSTed to ${config.sms.webhookUrl}.`),
    config.admin
      ? `  Staff login: ${config.admin.phone} with ADMIN_PASSWORD.`
      : '  No staff account configured: set ADMIN_PHONE and ADMIN_PASSWORD, or run `npm run examhall -- create-admin`.',
    '',
  ];
  return lines.filter((l) => l !== '').join('\n');
}

/**
 * Connections the kernel holds for the process before it accepts them (capped by net.core.somaxconn). In a start
 * wave thousands connect within seconds while the process is busy answering; with Node's default of 511 the queue
 * overflowed, and connections the client took for open were dropped and then reset (the exam bench's event streams:
 * 2,732 of 10,000 reset while opening).
 */
export const LISTEN_BACKLOG = 4096;

/** How a process serves (see AppOptions.role): under the supervisor its channel to it, else none. */
export interface ServeOptions {
  /** Seed the demo exam on an empty database (never in a cluster, where the operators own the data). */
  seed: boolean;
  /** What this process does; `all` unless the supervisor started it. */
  role?: ProcessRole;
  /** The channel to the supervisor (cluster/supervisor.ts), for a process it started. */
  channel?: IpcChannel | undefined;
  /** Code judged at once in this process (the supervisor shares the cores between its API processes). */
  judgeConcurrency?: number | undefined;
  /** This process among the supervisor's (`api-2`, `worker-0`): the `process` label of its metrics. */
  name?: string | undefined;
}

/**
 * Serves the API (and the web app) until SIGTERM or SIGINT, then shuts down gracefully. One of any number of API
 * processes in a cluster, or of the supervisor's; a worker process (role `worker`) answers no calls and runs jobs
 * and periodic tasks. The process that runs jobs also prepares the database: the first admin, TOTP secrets stored
 * before they were encrypted, and the demo exam on an empty database when `seed` says so.
 */
export async function serve(config: Config, opts: ServeOptions): Promise<void> {
  const role = opts.role ?? 'all';
  // Made before the parts, so their failures are counted from the first statement on.
  const metrics = new Metrics({ process: opts.name });
  const runtime = await openRuntime(config, {
    dbLog: countDbFailures(metrics),
    channel: opts.channel,
    // Under the supervisor the worker brings the schema up to date before any API process starts.
    migrate: role !== 'api',
    judgeConcurrency: opts.judgeConcurrency,
    walCheckpoints: role === 'api' ? 'elsewhere' : role === 'worker' ? 'timer' : undefined,
  });
  const { app, services, drain, opsApp } = await buildApp({
    config,
    db: runtime.handle.db,
    limiter: runtime.limiter,
    store: countStoreFailures(runtime.store, metrics),
    groupCommitLanes: runtime.handle.kit.groupCommitLanes,
    judgeQueue: runtime.judgeQueue,
    notifier: runtime.notifier,
    poolStats: runtime.handle.kit.pool,
    role,
    metrics,
  });
  let seeded = false;
  if (role !== 'api') {
    // TOTP secrets stored before they were encrypted are encrypted now (a row is changed once).
    const sealed = await services.staffTotp.sealPlainSecrets();
    if (sealed > 0) app.log.info({ accounts: sealed }, 'staff TOTP secrets encrypted');
    if (config.admin) await services.staff.ensureAdmin(config.admin.phone, config.admin.password);
    seeded = opts.seed && (await seedDemo(runtime.handle.db, runtime.store, config.demoPhone, Date.now())) !== null;
  }
  shutdownOnSignals({
    app,
    drain,
    closeRuntime: () => runtime.close(),
    graceMs: config.shutdownGraceMs,
    secondSignalExits: opts.channel === undefined,
  });

  if (role === 'worker') {
    await app.ready();
    // It answers no calls: its health and metrics have a port of their own, when one is set.
    if (opsApp && config.metricsPort !== undefined)
      await opsApp.listen({ port: config.metricsPort, host: config.host });
    opts.channel?.send({ t: 'state', state: 'prepared', seeded });
    return;
  }
  const address = await app.listen({ port: config.port, host: config.host, backlog: LISTEN_BACKLOG });
  const listening = address.replace('0.0.0.0', 'localhost');
  if (opts.channel) opts.channel.send({ t: 'state', state: 'listening', address: listening });
  else process.stdout.write(`${banner(config, listening, runtime.handle.dialect, seeded)}\n`);
  // The first face check of a cold process would wait for the models; load them while candidates log in.
  services.faceCheck.warm().catch((err: unknown) => app.log.error({ err }, 'the face engine failed to start'));
}
