/**
 * Telling a database that is not answering from a query that is wrong: PostgreSQL behind a proxy that is closed
 * (refused) or closes under a connection (cut) is unavailable; a bad query, or SQLite's errors, are not.
 */
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { dialectAvailable, openTestDb } from '../test/db.js';
import { TEST_DATABASE_URL } from '../test/parts.js';
import { startTcpProxy, type TcpProxy } from '../test/tcpProxy.js';
import { isDatabaseUnavailable, openDb, type DbHandle } from './database.js';
import { PG_CONNECT_TIMEOUT_MS } from './dialects/postgres.js';

const failureOf = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (err: unknown) => err,
  );

describe.runIf(await dialectAvailable('postgres'))('a PostgreSQL that is not answering', () => {
  let proxy: TcpProxy | undefined;
  let handle: DbHandle | undefined;
  afterEach(async () => {
    await handle?.db.destroy();
    await proxy?.close().catch(() => undefined);
  });

  it('is unavailable when refused or cut, and a wrong query is not', async () => {
    const target = new URL(TEST_DATABASE_URL);
    proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
    const via = new URL(TEST_DATABASE_URL);
    via.host = `127.0.0.1:${proxy.port}`;
    handle = openDb({ databaseUrl: via.toString() });
    const wrong = await failureOf(sql`select * from no_such_table`.execute(handle.db));
    expect(wrong).toBeInstanceOf(Error);
    expect(isDatabaseUnavailable(wrong)).toBe(false);

    // Cut under a query that is running.
    const running = failureOf(sql`select pg_sleep(5)`.execute(handle.db));
    await new Promise((resolve) => setTimeout(resolve, 300));
    await proxy.close();
    const cut = await running;
    expect(cut).toBeInstanceOf(Error);
    expect(isDatabaseUnavailable(cut)).toBe(true);

    // Refused: no connection can be had.
    const refused = await failureOf(sql`select 1`.execute(handle.db));
    expect(refused).toBeInstanceOf(Error);
    expect(isDatabaseUnavailable(refused)).toBe(true);
  });
});

describe.runIf(await dialectAvailable('postgres'))('a PostgreSQL behind a network that drops packets', () => {
  let proxy: TcpProxy | undefined;
  let handle: DbHandle | undefined;
  afterEach(async () => {
    await handle?.db.destroy();
    await proxy?.close().catch(() => undefined);
  });

  it('is unavailable once a new connection has waited its limit, not a request held for minutes', async () => {
    const target = new URL(TEST_DATABASE_URL);
    proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
    const via = new URL(TEST_DATABASE_URL);
    via.host = `127.0.0.1:${proxy.port}`;
    handle = openDb({ databaseUrl: via.toString() });
    await sql`select 1`.execute(handle.db);
    // The pooled connection is cut; the next one is accepted and never answered.
    proxy.silence();
    // The pool hears its idle connection end and drops it, so the next query needs a new one.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const started = Date.now();
    const silent = await failureOf(sql`select 1`.execute(handle.db));
    const waited = Date.now() - started;
    expect(silent).toBeInstanceOf(Error);
    expect(isDatabaseUnavailable(silent)).toBe(true);
    expect(waited).toBeGreaterThanOrEqual(PG_CONNECT_TIMEOUT_MS - 500);
    expect(waited).toBeLessThan(PG_CONNECT_TIMEOUT_MS + 10_000);
    // Answering again, the same pool connects and serves.
    await proxy.open();
    await sql`select 1`.execute(handle.db);
  }, 30_000);
});

describe('SQLite', () => {
  it('has no such state: its errors are the query’s', async () => {
    const test = await openTestDb('sqlite');
    try {
      const err = await failureOf(sql`select * from no_such_table`.execute(test.handle.db));
      expect(err).toBeInstanceOf(Error);
      expect(isDatabaseUnavailable(err)).toBe(false);
    } finally {
      await test.drop();
    }
  });
});
