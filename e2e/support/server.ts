import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSmsRecorder, type SmsRecorder } from './smsRecorder.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const serverMain = path.join(root, 'packages/server/dist/main.js');
const webIndex = path.join(root, 'packages/web/dist/index.html');

/** Phone number the demo exam is invited to. */
export const DEMO_PHONE = '13800138000';
/** The first staff account given to the server. */
export const ADMIN = { phone: '13900139000', password: 'e2e-admin-pass-1' } as const;

/** A running Examhall with its own empty database and SMS recorder. */
export interface TestServer {
  baseUrl: string;
  /** The server's DATA_DIR (its SQLite database is examhall.sqlite there), for checks of what it stored. */
  dataDir: string;
  sms: SmsRecorder;
  /** Everything the server printed, for failure messages. */
  output: () => string;
  stop: () => Promise<void>;
}

/** A port of this machine that nothing listens on now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Starts the built server (`npm run build` first) on a free port with a fresh DATA_DIR, SMS
 * codes going to a local recorder, and waits for its 'listening on' line.
 */
export async function startServer(extraEnv: Record<string, string> = {}): Promise<TestServer> {
  for (const [file, hint] of [
    [serverMain, 'npx tsc -b packages/server'],
    [webIndex, 'npm run build -w @examhall/web'],
  ] as const) {
    if (!existsSync(file))
      throw new Error(`${path.relative(root, file)} is missing: run \`${hint}\` (or \`npm run build\`) first`);
  }
  const sms = await startSmsRecorder();
  const dataDir = await mkdtemp(path.join(tmpdir(), 'examhall-e2e-'));
  const port = await freePort();
  let output = '';
  const child: ChildProcess = spawn(process.execPath, [serverMain], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      REDIS_URL: '',
      SMS_PROVIDER: 'webhook',
      SMS_WEBHOOK_URL: sms.url,
      DEMO_PHONE,
      ADMIN_PHONE: ADMIN.phone,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'warn',
      // The journeys run the server as one process (E2E_PROCESSES to run them on the supervisor's several).
      PROCESSES: process.env.E2E_PROCESSES ?? '1',
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (output += c.toString()));

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
    await sms.close();
    await rm(dataDir, { recursive: true, force: true });
  };

  try {
    const baseUrl = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`server did not start within 30 s:\n${output}`)), 30_000);
      const onData = () => {
        const m = /listening on (https?:\/\/[^\s)]+)/.exec(output);
        if (m?.[1]) {
          clearTimeout(timer);
          resolve(m[1].replace('localhost', '127.0.0.1'));
        }
      };
      child.stdout?.on('data', onData);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`server exited with code ${String(code)} before listening:\n${output}`));
      });
    });
    return { baseUrl, dataDir, sms, output: () => output, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}
