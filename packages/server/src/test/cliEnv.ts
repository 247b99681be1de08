/** Environments of their own for tests that run the `examhall` command: a data folder and, on PostgreSQL, a database. */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestDialect } from './db.js';
import { TEST_DATABASE_URL } from './parts.js';

/**
 * A new data folder and, on PostgreSQL, a new database (the command works in its default schema); each cleanup
 * (removing them) goes to `cleanups`. Answers the environment (DATA_DIR, and DATABASE_URL on PostgreSQL) and the folder.
 */
export async function cliEnvironment(
  dialect: TestDialect,
  cleanups: (() => Promise<void>)[],
): Promise<{ env: Record<string, string>; dir: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'examhall-cli-'));
  cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
  if (dialect === 'sqlite') return { env: { DATA_DIR: dir }, dir };
  const name = `cli_${randomBytes(6).toString('hex')}`;
  const admin = async (statement: string) => {
    const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await c.connect();
    try {
      await c.query(statement);
    } finally {
      await c.end();
    }
  };
  await admin(`create database ${name}`);
  cleanups.push(() => admin(`drop database ${name} with (force)`));
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  return { env: { DATA_DIR: dir, DATABASE_URL: url.toString() }, dir };
}
