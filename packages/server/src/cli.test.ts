import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import argon2 from 'argon2';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from './cli.js';
import { openDb } from './db/database.js';

describe('examhall command', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
  });

  async function cli(args: string[], dataDir: string) {
    const lines: string[] = [];
    const code = await runCli(
      args,
      { DATA_DIR: dataDir },
      (t) => lines.push(t),
      (t) => lines.push(t),
    );
    return { code, text: lines.join('') };
  }

  it('creates the admin, then resets its password, in the configured database', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'examhall-cli-'));
    dirs.push(dir);
    expect(await cli(['create-admin', '--phone', '13900000000', '--password', 'first-password'], dir)).toMatchObject({
      code: 0,
      text: expect.stringContaining('created'),
    });
    expect(await cli(['create-admin', '--phone', '13900000000', '--password', 'second-password'], dir)).toMatchObject({
      code: 0,
      text: expect.stringContaining('password updated'),
    });
    const { db } = openDb({ dataDir: dir });
    const rows = await db.selectFrom('staff').selectAll().execute();
    await db.destroy();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.role).toBe('admin');
    expect(await argon2.verify(rows[0]!.password_hash, 'second-password')).toBe(true);
  });

  it("refuses a judge worker's bad recovery option with the usage, before reaching Redis", async () => {
    const lines: string[] = [];
    const code = await runCli(
      ['judge-worker', '--lock-duration', 'soon'],
      { REDIS_URL: 'redis://127.0.0.1:1/0' },
      (t) => lines.push(t),
      (t) => lines.push(t),
    );
    expect(code).toBe(2);
    expect(lines.join('')).toContain('--lock-duration must be a positive number');
    expect(lines.join('')).toContain('judge-worker [--concurrency N] [--lock-duration MS] [--stalled-interval MS]');
  });

  it('refuses missing options, short passwords and unknown commands', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'examhall-cli-'));
    dirs.push(dir);
    expect((await cli(['create-admin', '--phone', '13900000000'], dir)).code).toBe(2);
    await expect(cli(['create-admin', '--phone', '13900000000', '--password', 'short'], dir)).rejects.toThrow(
      'at least 8',
    );
    expect(await cli(['frobnicate'], dir)).toMatchObject({ code: 2, text: expect.stringContaining('Unknown command') });
    expect(await cli(['seed-demo'], dir)).toMatchObject({ code: 0, text: expect.stringContaining('seeded') });
    expect(await cli(['seed-demo'], dir)).toMatchObject({ code: 0, text: expect.stringContaining('nothing seeded') });
  });
});
