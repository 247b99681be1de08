/**
 * A process that runs bulk invitations and sends their texts, for the crash test (run with tsx's loader): the
 * job runner (BullMQ when JOB_REDIS is set, else the in-process runner on the table, as the embedded default
 * runs) with the real invitation handler, and the SMS dispatcher every 50 ms, sending to SMS_WEBHOOK_URL.
 * Prints "ready" once it takes jobs; the test kills it with SIGKILL.
 *
 * Environment: JOB_DB, JOB_DB_SCHEMA, JOB_REDIS, JOB_PREFIX, JOB_LEASE_MS (see jobWorker.ts), SMS_WEBHOOK_URL,
 * INVITE_STEP (phones per step).
 */
import pino from 'pino';
import type { JobKind } from '@examhall/contract';
import { openWorkerDb } from './workerDb.js';
import { openJobQueue, type JobHandlers } from '../jobs/index.js';
import { AccessService } from '../services/access.js';
import { AuditService } from '../services/audit.js';
import { BulkInviteService } from '../services/bulkInvite.js';
import { InvitationService } from '../services/invitations.js';
import { InvitationTexts } from '../services/invitationTexts.js';
import { JobService } from '../services/jobs.js';
import { MemoryRateLimiter } from '../ratelimit/limiter.js';
import { SmsDispatcher } from '../services/smsDispatch.js';
import { SMS_BUDGET_DEFAULTS, SmsBudget } from '../services/smsBudget.js';
import { SmsPacer } from '../services/smsPacing.js';
import { WebhookSmsSender } from '../sms/sender.js';

const db = openWorkerDb().db;
const leaseMs = Number(process.env.JOB_LEASE_MS ?? 1000);
const log = pino({ level: 'warn' });
const handlers = {} as JobHandlers<JobKind>;
const queue = openJobQueue(db, handlers, {
  redisUrl: process.env.JOB_REDIS || undefined,
  prefix: process.env.JOB_PREFIX,
  leaseMs,
  pollMs: 50,
});
const access = new AccessService(db);
const audit = new AuditService(db, Date.now);
const texts = new InvitationTexts(db, {
  budget: new SmsBudget(SMS_BUDGET_DEFAULTS, Date.now),
  publicUrl: 'http://exam.example',
  clock: Date.now,
});
const bulk = new BulkInviteService(db, {
  access,
  audit,
  jobs: new JobService(db, queue, access, audit),
  invitations: new InvitationService({ clock: Date.now }),
  texts,
  bulkStep: Number(process.env.INVITE_STEP ?? 250),
});
Object.assign(handlers, { invitation_bulk: (ctx) => bulk.runBulk(ctx) } satisfies Partial<JobHandlers<JobKind>>);
const dispatcher = new SmsDispatcher(db, new WebhookSmsSender(process.env.SMS_WEBHOOK_URL ?? ''), texts, {
  pacer: new SmsPacer(new MemoryRateLimiter(), { rate: 10_000, loginRate: 0, loginMaxWaitMs: 0 }),
  clock: Date.now,
  log,
  leaseMs,
});
await queue.start();
const send = async (): Promise<void> => {
  await dispatcher.dispatch(50).catch((err: unknown) => log.warn({ err }, 'dispatch failed'));
  setTimeout(() => void send(), 50);
};
void send();
process.stdout.write('ready\n');
