/**
 * A job worker process for the crash tests (run with tsx): BullMQ on Redis, the `items` test kind, the
 * database given by the environment. Prints "ready" once it takes jobs; the test kills it with SIGKILL.
 *
 * Environment: JOB_DB (a SQLite file, or a postgres:// URL), JOB_DB_SCHEMA (PostgreSQL schema), JOB_REDIS,
 * JOB_PREFIX (Redis key prefix), JOB_LEASE_MS.
 */
import { openWorkerDb } from './workerDb.js';
import { BullJobQueue } from '../jobs/bullmq.js';
import { testHandlers } from './jobKinds.js';

const handle = openWorkerDb();
const queue = new BullJobQueue(handle.db, testHandlers(), process.env.JOB_REDIS ?? '', {
  prefix: process.env.JOB_PREFIX,
  leaseMs: Number(process.env.JOB_LEASE_MS ?? 1000),
  concurrency: 1,
});
await queue.start();
process.stdout.write('ready\n');
