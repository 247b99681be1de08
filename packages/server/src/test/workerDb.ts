/** The shared database of the test worker processes: JOB_DB (a PostgreSQL URL or an SQLite file) and JOB_DB_SCHEMA. */
import { openDb, type DbHandle } from '../db/database.js';

/** Opens the database the test that started this process names in JOB_DB (and JOB_DB_SCHEMA on PostgreSQL). */
export function openWorkerDb(): DbHandle {
  const target = process.env.JOB_DB ?? '';
  return target.startsWith('postgres')
    ? openDb({ databaseUrl: target, searchPath: process.env.JOB_DB_SCHEMA })
    : openDb({ sqliteFile: target });
}
