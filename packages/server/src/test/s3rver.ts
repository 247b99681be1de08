/** S3-compatible storage for tests: s3rver (an independent S3 implementation) on loopback, and an app that uses it. */
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { loadConfig } from '../config.js';
import { S3ObjectStore } from '../storage/s3ObjectStore.js';
import { createTestApp, type TestApp } from './app.js';
import type { TestDialect } from './db.js';

/** A running s3rver with its bucket `evidence` and the default account. */
export interface TestS3 {
  /** The S3_* settings that reach it, with the extra variables it was started with. */
  env: Record<string, string>;
  /** A store on it, built from `env`. */
  store: S3ObjectStore;
  /** Stops it and removes its files. */
  close(): Promise<void>;
}

/** Starts s3rver in a temp folder; `extraEnv` joins the S3 settings in `env`. */
export async function startS3rver(extraEnv: Record<string, string> = {}): Promise<TestS3> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'examhall-s3rver-'));
  const server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory: dir,
    configureBuckets: [{ name: 'evidence', configs: [] }],
  });
  const address = (await server.run()) as AddressInfo;
  const env = {
    S3_ENDPOINT: `http://127.0.0.1:${address.port}`,
    S3_BUCKET: 'evidence',
    S3_REGION: 'us-east-1',
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    S3_ROLE_ARN: 'arn:aws:iam::000000000000:role/examhall-uploads',
    ...extraEnv,
  };
  return {
    env,
    store: new S3ObjectStore(loadConfig(env).s3!),
    async close() {
      await server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A test app whose object storage is a fresh s3rver. */
export interface S3TestApp {
  t: TestApp;
  s3: TestS3;
  /** Closes the app, then the s3rver. */
  close(): Promise<void>;
}

/** Starts s3rver (with `extraEnv`) and a test app on `dialect` storing its objects there. */
export async function s3TestApp(dialect: TestDialect, extraEnv: Record<string, string> = {}): Promise<S3TestApp> {
  const s3 = await startS3rver(extraEnv);
  const t = await createTestApp(dialect, { env: s3.env, objectStore: s3.store });
  return {
    t,
    s3,
    async close() {
      await t.close();
      await s3.close();
    },
  };
}
