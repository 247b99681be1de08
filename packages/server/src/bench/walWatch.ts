/**
 * What the SQLite WAL holds while a bench runs, read from the side without a connection: the wal-index
 * (`<file>-shm`) starts with its header (the frames the WAL holds, `mxFrame`, at byte 16; the page size at 14) and,
 * after the header's two copies, the checkpoint's progress (`nBackfill`, at byte 96), in the machine's byte order.
 * A reader of these bytes takes no lock and changes nothing.
 */
import fs from 'node:fs';

/** One look at the WAL. */
export interface WalSample {
  at: number;
  /** Frames in the WAL now, and how many of them a checkpoint has copied back. */
  frames: number;
  backfilled: number;
  pageSize: number;
  /** The WAL file's size on disk (it does not shrink when the log starts again from its beginning). */
  fileBytes: number;
}

/** Reads the wal-index header of `dbFile`; null when there is none (not WAL, or not opened yet). */
export function readWal(dbFile: string, at = Date.now()): WalSample | null {
  let fd: number;
  try {
    fd = fs.openSync(`${dbFile}-shm`, 'r');
  } catch {
    return null;
  }
  try {
    const b = Buffer.alloc(100);
    if (fs.readSync(fd, b, 0, 100, 0) < 100) return null;
    const raw = b.readUInt16LE(14);
    let fileBytes = 0;
    try {
      fileBytes = fs.statSync(`${dbFile}-wal`).size;
    } catch {
      // No WAL file yet.
    }
    return {
      at,
      frames: b.readUInt32LE(16),
      backfilled: b.readUInt32LE(96),
      pageSize: raw === 1 ? 65536 : raw,
      fileBytes,
    };
  } finally {
    fs.closeSync(fd);
  }
}

/** Samples `dbFile`'s WAL every `everyMs` until stopped. */
export function watchWal(dbFile: string, everyMs = 500): { samples: WalSample[]; stop(): void } {
  const samples: WalSample[] = [];
  const timer = setInterval(() => {
    const s = readWal(dbFile);
    if (s) samples.push(s);
  }, everyMs);
  timer.unref();
  return { samples, stop: () => clearInterval(timer) };
}

/** The samples from `from` on, as the largest WAL (in MB) and the largest lag of its checkpoint (frames) by 10 s. */
export function walTimeline(samples: readonly WalSample[], from: number, to: number): string {
  const buckets = new Map<number, { mb: number; lag: number }>();
  for (const s of samples) {
    if (s.at < from || s.at >= to) continue;
    const k = Math.floor((s.at - from) / 10_000);
    const b = buckets.get(k) ?? { mb: 0, lag: 0 };
    b.mb = Math.max(b.mb, (s.frames * s.pageSize) / 1048576);
    b.lag = Math.max(b.lag, s.frames - s.backfilled);
    buckets.set(k, b);
  }
  return (
    [...buckets.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([k, b]) => `${k * 10}-${k * 10 + 10} s: ${b.mb.toFixed(1)} MB, ${b.lag} behind`)
      .join('; ') || 'no samples'
  );
}
