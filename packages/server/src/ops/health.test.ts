/**
 * /healthz and /readyz at the server's root: alive and ready on both dialects, beside the API prefix and the
 * web app's fallback; /readyz answers 503 naming the database while PostgreSQL is gone (a proxy in front of
 * it is closed) and 200 again once it is back, never hanging; Redis and storage the same way.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/app.js';
import { dialectAvailable, testedDialects } from '../test/db.js';
import { requirePart, TEST_DATABASE_URL, TEST_REDIS_URL } from '../test/parts.js';
import { until } from '../test/processes.js';
import { startTcpProxy, type TcpProxy } from '../test/tcpProxy.js';
import { LocalObjectStore } from '../storage/objectStore.js';
import { readiness, redisProbe, storageProbe } from './health.js';

const redisHere = await requirePart('redis');

interface ReadyBody {
  status: string;
  failing: string[];
  parts: Record<string, { ok: boolean; ms: number; error?: string }>;
}

describe.each(await testedDialects())('health and readiness on %s', (dialect) => {
  let t: TestApp;
  afterEach(async () => t.close());

  it('answers alive and ready at the root, with the web app served, and 503 once draining', async () => {
    const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'examhall-web-'));
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>app</title>');
    try {
      t = await createTestApp(dialect, { env: { WEB_DIST: dist } });
      const health = await t.app.inject('/healthz');
      expect(health.statusCode).toBe(200);
      expect(health.json()).toEqual({ status: 'ok' });
      expect(health.headers['cache-control']).toBe('no-store');

      const ready = await t.app.inject('/readyz');
      expect(ready.statusCode, ready.body).toBe(200);
      const b = ready.json<ReadyBody>();
      expect(b.status).toBe('ready');
      expect(Object.keys(b.parts).sort()).toEqual(['database', 'storage']);
      expect(b.failing).toEqual([]);
      // Not the web app's page, and not under the API prefix.
      expect(ready.headers['content-type']).toContain('application/json');
      expect((await t.app.inject('/api/readyz')).statusCode).toBe(404);
      // Not in the API's OpenAPI document either.
      const paths = Object.keys((t.app.swagger() as { paths: Record<string, unknown> }).paths);
      expect(paths.length).toBeGreaterThan(50);
      expect(paths.filter((p) => ['/healthz', '/readyz', '/metrics'].includes(p))).toEqual([]);

      t.drain();
      const draining = await t.app.inject('/readyz');
      expect(draining.statusCode).toBe(503);
      expect(draining.json<ReadyBody>().status).toBe('draining');
      expect((await t.app.inject('/healthz')).statusCode).toBe(200);
    } finally {
      fs.rmSync(dist, { recursive: true, force: true });
    }
  });
});

describe.runIf(await dialectAvailable('postgres'))('readiness while PostgreSQL goes away', () => {
  let t: TestApp | undefined;
  let proxy: TcpProxy;
  afterEach(async () => {
    await proxy.open().catch(() => undefined);
    await t?.close();
    await proxy.close();
  });

  it('answers 503 naming the database within seconds, and 200 again once it is back', async () => {
    const target = new URL(TEST_DATABASE_URL);
    proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
    const viaProxy = new URL(TEST_DATABASE_URL);
    viaProxy.host = `127.0.0.1:${proxy.port}`;
    t = await createTestApp('postgres', { databaseUrl: viaProxy.toString() });
    expect((await t.app.inject('/readyz')).statusCode).toBe(200);

    await proxy.close();
    const started = Date.now();
    const down = await t.app.inject('/readyz');
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(down.statusCode, down.body).toBe(503);
    const b = down.json<ReadyBody>();
    expect(b.status).toBe('not_ready');
    expect(b.failing).toEqual(['database']);
    expect(b.parts.database?.error).toBeTruthy();
    expect(b.parts.storage?.ok).toBe(true);
    // Still alive: a balancer takes it out of rotation, an orchestrator does not restart it.
    expect((await t.app.inject('/healthz')).statusCode).toBe(200);

    await proxy.open();
    const back = await until(async () => {
      const res = await t!.app.inject('/readyz');
      return res.statusCode === 200 && res;
    }, 10_000);
    expect(back.json<ReadyBody>().failing).toEqual([]);
  });
});

describe('readiness probes', () => {
  it('a hanging part is down after its time limit, not a hanging answer', async () => {
    const started = Date.now();
    const r = await readiness([{ name: 'database', check: () => new Promise(() => undefined) }], 200);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(r.ready).toBe(false);
    expect(r.parts.database).toMatchObject({ ok: false, error: 'no answer within 200 ms' });
  });

  it('storage: a writable folder is ready, an unwritable one is not', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'examhall-probe-'));
    try {
      // The folder is made on the first write: a missing one under a writable parent is ready.
      expect((await readiness([storageProbe(new LocalObjectStore(path.join(dir, 'objects')))])).ready).toBe(true);
      const file = path.join(dir, 'a-file');
      fs.writeFileSync(file, '');
      const blocked = await readiness([storageProbe(new LocalObjectStore(path.join(file, 'objects')))]);
      expect(blocked.ready).toBe(false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it.runIf(redisHere)('Redis: down while its proxy is closed, ready again once it is back', async () => {
    const target = new URL(TEST_REDIS_URL);
    const proxy = await startTcpProxy(target.hostname, Number(target.port || 6379));
    const probe = redisProbe(`redis://127.0.0.1:${proxy.port}`);
    try {
      expect((await readiness([probe])).ready).toBe(true);
      await proxy.close();
      const down = await readiness([probe]);
      expect(down.ready).toBe(false);
      expect(down.parts.redis?.ok).toBe(false);
      await proxy.open();
      await until(async () => (await readiness([probe])).ready, 10_000);
    } finally {
      await probe.close();
      await proxy.close().catch(() => undefined);
    }
  });
});
