/**
 * `examhall serve`: one API process, on the embedded defaults (the demo exam seeded on an empty database) or, with
 * CLUSTER=true, one of many, which refuses to start on any part of one machine.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from './bench/harness.js';
import { standaloneEnv, startScript } from './test/processes.js';

describe('examhall serve', () => {
  let child: ChildProcess | undefined;
  let dataDir: string | undefined;
  afterEach(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves on the embedded defaults, alive and ready, and exits 0 on SIGTERM', async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'examhall-serve-'));
    const port = await freePort();
    child = await startScript(
      '../cli.ts',
      { ...standaloneEnv(port, dataDir), FACE_WORKERS: '1' },
      'Examhall is listening',
      ['serve'],
    );
    let out = '';
    child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
    expect(ready.status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(out).not.toContain('failed');
    // Without TOTP_KEY outside production a key is generated in DATA_DIR (services/totpSecrets.test.ts: the warning).
    expect(fs.statSync(path.join(dataDir, 'totp.key')).mode & 0o777).toBe(0o600);
  }, 60_000);

  it('refuses to start with NODE_ENV=production and no TOTP_KEY, in one line', async () => {
    const started = startScript('../cli.ts', { NODE_ENV: 'production', TOTP_KEY: '' }, 'listening', ['serve']);
    const error = await started.then(
      () => null,
      (e: unknown) => (e instanceof Error ? e.message : String(e)),
    );
    expect(error).toContain('exited (2)');
    expect(error).toContain('TOTP_KEY: is required with NODE_ENV=production');
  }, 60_000);

  it('refuses, with CLUSTER=true, to start on SQLite, without Redis or on the local store, naming each', async () => {
    const started = startScript('../cli.ts', { CLUSTER: 'true', DATABASE_URL: '', REDIS_URL: '' }, 'listening', [
      'serve',
    ]);
    const error = await started.then(
      () => null,
      (e: unknown) => (e instanceof Error ? e.message : String(e)),
    );
    expect(error).toContain('exited (2)');
    expect(error).toContain('DATABASE_URL: is required with CLUSTER=true');
    expect(error).toContain('REDIS_URL: is required with CLUSTER=true');
    expect(error).toContain('S3_ENDPOINT: an S3-compatible store is required with CLUSTER=true');
  }, 60_000);
});
