/**
 * A process that delivers webhooks, for the crash test (run with tsx's loader): the deliverer every 50 ms on
 * the shared database, letting webhooks reach loopback. Prints "ready" once it runs; the test kills it with
 * SIGKILL.
 *
 * Environment: JOB_DB, JOB_DB_SCHEMA (see jobWorker.ts), WEBHOOK_LEASE_MS.
 */
import pino from 'pino';
import { WEBHOOK_LOG_DAYS } from '../config.js';
import { openWorkerDb } from './workerDb.js';
import { AuditService } from '../services/audit.js';
import { ExamCatalog } from '../services/catalog.js';
import { ResultFeedService } from '../services/resultFeed.js';
import { WebhookService } from '../services/webhooks.js';

const db = openWorkerDb().db;
const log = pino({ level: 'warn' });
const webhooks = new WebhookService(db, {
  audit: new AuditService(db, Date.now),
  results: new ResultFeedService(db, new ExamCatalog(db, Date.now)),
  clock: Date.now,
  log,
  allowPrivate: true,
  logDays: WEBHOOK_LOG_DAYS,
  leaseMs: Number(process.env.WEBHOOK_LEASE_MS ?? 1000),
  timeoutMs: 60_000,
});
const run = async (): Promise<void> => {
  await webhooks.deliver().catch((err: unknown) => log.warn({ err }, 'delivery run failed'));
  setTimeout(() => void run(), 50);
};
void run();
process.stdout.write('ready\n');
