/** The embedded default's process model in tests: `main.ts` under its supervisor with two API processes. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freshDb, smsInbox, startServer, type BenchDb, type ServerProcess } from '../bench/harness.js';
import { killPids, supervisedPids, tsxLoader } from './processes.js';

const here = path.dirname(fileURLToPath(import.meta.url));

/** A running supervisor, its database and the SMS inbox its texts go to. */
export interface Supervised {
  db: BenchDb;
  inbox: Awaited<ReturnType<typeof smsInbox>>;
  server: ServerProcess;
  /** Kills the supervisor and its processes, closes the inbox and drops the database. */
  stop(): Promise<void>;
}

/**
 * Starts `main.ts` (with tsx) with PROCESSES=2 on a fresh SQLite folder, one face worker, texts to a new inbox, and
 * `env` on top.
 */
export async function startSupervised(env: Record<string, string>): Promise<Supervised> {
  const db = await freshDb('sqlite');
  const inbox = await smsInbox();
  const server = await startServer(
    {
      ...db.env,
      PROCESSES: '2',
      FACE_WORKERS: '1',
      SMS_PROVIDER: 'webhook',
      SMS_WEBHOOK_URL: inbox.url,
      WEB_DIST: '/nonexistent',
      SHUTDOWN_GRACE_MS: '2000',
      ...env,
    },
    3,
    { main: path.resolve(here, '../main.ts'), nodeArgs: ['--import', tsxLoader] },
  );
  return {
    db,
    inbox,
    server,
    async stop() {
      // The supervisor's processes are found before it goes: once it is gone they have no parent to be found by.
      const children = server.child.pid ? supervisedPids(server.child.pid) : [];
      await server.stop('SIGKILL');
      killPids(children);
      inbox.close();
      await db.drop();
    },
  };
}
