import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { readWal, walTimeline } from './walWatch.js';

describe('readWal', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
  });

  it('reads the frames SQLite itself reports, and the checkpoint catching up with them', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wal-watch-'));
    dirs.push(dir);
    const file = path.join(dir, 'x.sqlite');
    const db = new SQLite(file);
    db.pragma('journal_mode = WAL');
    db.pragma('wal_autocheckpoint = 0');
    db.exec('create table t (v text)');
    const insert = db.prepare('insert into t values (?)');
    for (let i = 0; i < 200; i++) insert.run('x'.repeat(2000));
    const before = readWal(file)!;
    expect(before.pageSize).toBe(4096);
    expect(before.frames).toBeGreaterThan(100);
    expect(before.backfilled).toBe(0);
    expect(before.fileBytes).toBeGreaterThan(before.frames * 4096);
    const [r] = db.pragma('wal_checkpoint(PASSIVE)') as { log: number; checkpointed: number }[];
    const after = readWal(file)!;
    expect(after.frames).toBe(r!.log);
    expect(after.backfilled).toBe(r!.checkpointed);
    expect(after.backfilled).toBe(after.frames);
    db.close();
  });

  it('is null where there is no wal-index', () => {
    expect(readWal(path.join(os.tmpdir(), 'no-such-db.sqlite'))).toBeNull();
  });
});

describe('walTimeline', () => {
  it('gives the largest WAL and lag of each 10 s', () => {
    const s = (at: number, frames: number, backfilled: number) => ({
      at,
      frames,
      backfilled,
      pageSize: 4096,
      fileBytes: 0,
    });
    expect(walTimeline([s(1000, 256, 0), s(5000, 512, 256), s(12_000, 10, 10), s(40_000, 9, 0)], 0, 30_000)).toBe(
      '0-10 s: 2.0 MB, 256 behind; 10-20 s: 0.0 MB, 0 behind',
    );
  });
});
