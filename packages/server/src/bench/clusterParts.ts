/**
 * The parts of a cluster besides its API processes, each a real one on loopback: a Redis server of the cluster's own
 * (no persistence) and s3rver, an independent S3 implementation with a bucket in a temporary folder, each a process
 * of its own. bench:exam's
 * cluster mode and the fault tests (faults/cluster.ts) start them the same way.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { freePort } from './harness.js';

/** A Redis server of the caller's own, so its queues and channels are no other run's. */
export async function startRedis(): Promise<{ port: number; pid: number; stop(): Promise<void> }> {
  const port = await freePort();
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('Ready to accept connections')) resolve();
    });
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`redis-server exited (${code}):\n${out}`)));
  });
  return {
    port,
    pid: child.pid!,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}

/** The store's settings as the server's environment names them (s3rver's default account). */
export interface S3Env {
  S3_BUCKET: string;
  S3_REGION: string;
  S3_ACCESS_KEY_ID: string;
  S3_SECRET_ACCESS_KEY: string;
  S3_ROLE_ARN: string;
}

/** This module's own sources run under tsx (tests), its build under plain node. */
const here = path.dirname(fileURLToPath(import.meta.url));
const fromSources = import.meta.url.endsWith('.ts');

/**
 * s3rver on a loopback port with the `evidence` bucket, as a process of its own (bench/s3rverMain.ts); `close`
 * stops it and removes its folder.
 */
export async function startS3rver(): Promise<{ port: number; pid: number; env: S3Env; close(): Promise<void> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'examhall-s3-'));
  const loader = pathToFileURL(path.resolve(here, '../../../../node_modules/tsx/dist/loader.mjs')).href;
  const child = spawn(
    process.execPath,
    [...(fromSources ? ['--import', loader] : []), path.join(here, `s3rverMain.${fromSources ? 'ts' : 'js'}`), dir],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  try {
    let out = '';
    const port = await new Promise<number>((resolve, reject) => {
      child.stdout!.on('data', (c: Buffer) => {
        out += c.toString();
        const m = /ready (\d+)/.exec(out);
        if (m) resolve(Number(m[1]));
      });
      child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
      child.once('error', reject);
      child.once('exit', (code) => reject(new Error(`s3rver exited (${code}):\n${out}`)));
    });
    return {
      port,
      pid: child.pid!,
      env: {
        S3_BUCKET: 'evidence',
        S3_REGION: 'us-east-1',
        S3_ACCESS_KEY_ID: 'S3RVER',
        S3_SECRET_ACCESS_KEY: 'S3RVER',
        S3_ROLE_ARN: 'arn:aws:iam::000000000000:role/examhall-uploads',
      },
      async close() {
        await stop();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    await stop();
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}
