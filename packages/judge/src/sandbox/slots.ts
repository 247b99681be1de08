import { constants } from 'node:fs';
import { mkdir, open, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** A held box slot: its own host uid/gid and cgroup name until released. */
export interface Slot {
  index: number;
  uid: number;
  gid: number;
  release(): Promise<void>;
}

/** How many distinct box uids a host hands out (uid base + 0 .. SLOTS-1). */
export const SLOTS = 256;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const held = new Set<number>();
let cursor = 0;

/**
 * Takes a free slot. Slots are lock files created with O_EXCL, so several judge processes on one
 * host (the server, separate workers, parallel test files) never share a uid; a lock whose
 * process is gone is taken over.
 */
export async function acquireSlot(stateDir: string, uidBase: number): Promise<Slot> {
  const dir = join(stateDir, 'slots');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  for (let attempt = 0; ; attempt++) {
    for (let k = 0; k < SLOTS; k++) {
      const index = (cursor + k) % SLOTS;
      if (held.has(index)) continue;
      const file = join(dir, `${index}.lock`);
      try {
        const fh = await open(
          file,
          constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
          0o600,
        );
        await fh.writeFile(String(process.pid));
        await fh.close();
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        const owner = Number(await readFile(file, 'utf8').catch(() => ''));
        // An empty file is a lock being written right now; only a dead owner's lock is stale.
        if (owner > 0 && owner !== process.pid && !alive(owner)) await unlink(file).catch(() => undefined);
        continue;
      }
      held.add(index);
      cursor = (index + 1) % SLOTS;
      const uid = uidBase + index;
      return {
        index,
        uid,
        gid: uid,
        async release() {
          held.delete(index);
          await unlink(file).catch(() => undefined);
        },
      };
    }
    await sleep(Math.min(50, 5 * (attempt + 1)));
  }
}
