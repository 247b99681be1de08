import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir, readFile, rmdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** Which cgroup interface the judge uses on this host. */
export type CgroupMode = 'v1' | 'v2' | 'none';

/** What the host offers, detected once. */
export interface CgroupSupport {
  /** v1 (memory + pids hierarchies), v2 (unified) or none (rlimits only). */
  mode: CgroupMode;
  /** Why cgroups are not used, when mode is none. */
  reason?: string;
  /** Parent directories the judge creates its boxes under (one per v1 hierarchy, one on v2). */
  memoryBase?: string;
  pidsBase?: string;
  cpuBase?: string;
}

/** Limits and measurements of one box's cgroup. */
export interface BoxCgroup {
  /** Files the launcher writes its pid into before dropping privileges. */
  procsFiles: string[];
  /**
   * Peak memory, CPU time of every process that ran in the box, and whether the kernel OOM-killed
   * inside it. The cgroup is the only reliable source: bubblewrap's monitor exits without reaping
   * its pid-1 child, so wait4() on it sees none of the program's CPU time or memory.
   */
  usage(): Promise<{ peakBytes: number; oomKilled: boolean; cpuUs: number }>;
  /** Kills whatever is left and removes the cgroup directories. */
  destroy(): Promise<void>;
  /**
   * Per-case measurement for a box that runs many cases (v1 only): beginCase() resets the peak and
   * failure counters and remembers the CPU and OOM counters, caseUsage() reports this case alone.
   * Synchronous: a few small cgroup files, cheaper than a round trip through the thread pool.
   */
  cases?: {
    beginCase(limitBytes: number): void;
    caseUsage(): { peakBytes: number; oomKilled: boolean; cpuUs: number };
  };
}

const ROOT = '/sys/fs/cgroup';

function ownPath(controller: string): string | undefined {
  // /proc/self/cgroup lines: "id:controllers:path"; v2 has id 0 and an empty controller list.
  for (const line of readFileSync('/proc/self/cgroup', 'utf8').split('\n')) {
    const [, controllers, path] = line.split(':');
    if (path === undefined || controllers === undefined) continue;
    if (controller === '' ? controllers === '' : controllers.split(',').includes(controller)) return path;
  }
  return undefined;
}

let detected: Promise<CgroupSupport> | undefined;

/** Detects v1 or v2 and prepares the judge's parent cgroups (once per process). */
export function cgroupSupport(): Promise<CgroupSupport> {
  detected ??= detect().catch((err: unknown) => ({ mode: 'none' as const, reason: (err as Error).message }));
  return detected;
}

async function detect(): Promise<CgroupSupport> {
  if (process.getuid?.() !== 0) return { mode: 'none', reason: 'the judge does not run as root' };
  if (
    existsSync(join(ROOT, 'memory', 'memory.limit_in_bytes')) &&
    existsSync(join(ROOT, 'pids')) &&
    existsSync(join(ROOT, 'cpuacct', 'cpuacct.usage'))
  ) {
    const memoryBase = join(ROOT, 'memory', ownPath('memory') ?? '/', 'examhall-judge');
    const pidsBase = join(ROOT, 'pids', ownPath('pids') ?? '/', 'examhall-judge');
    const cpuBase = join(ROOT, 'cpuacct', ownPath('cpuacct') ?? '/', 'examhall-judge');
    await mkdir(memoryBase, { recursive: true });
    await mkdir(pidsBase, { recursive: true });
    await mkdir(cpuBase, { recursive: true });
    return { mode: 'v1', memoryBase, pidsBase, cpuBase };
  }
  if (existsSync(join(ROOT, 'cgroup.controllers'))) {
    // v2 forbids processes in a cgroup whose children have controllers, so the judge needs a
    // delegated subtree of its own: EXAMHALL_JUDGE_CGROUP (e.g. from systemd Delegate=yes), or a
    // child of our own cgroup when that one may enable memory and pids for its children.
    const base = process.env.EXAMHALL_JUDGE_CGROUP ?? join(ROOT, ownPath('') ?? '/', 'examhall-judge');
    const controllers = await readFile(join(ROOT, 'cgroup.controllers'), 'utf8');
    if (!controllers.includes('memory') || !controllers.includes('pids')) {
      return { mode: 'none', reason: 'cgroup v2 without the memory and pids controllers' };
    }
    try {
      await mkdir(base, { recursive: true });
      await writeFile(join(base, 'cgroup.subtree_control'), '+memory +pids');
    } catch (err) {
      return { mode: 'none', reason: `cannot enable memory and pids under ${base}: ${(err as Error).message}` };
    }
    return { mode: 'v2', memoryBase: base, pidsBase: base };
  }
  return { mode: 'none', reason: 'no cgroup memory controller on this host' };
}

async function killAll(dir: string): Promise<void> {
  for (let round = 0; round < 50; round++) {
    let pids: number[];
    try {
      pids = (await readFile(join(dir, 'cgroup.procs'), 'utf8')).split('\n').filter(Boolean).map(Number);
    } catch {
      return;
    }
    if (pids.length === 0) return;
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    await sleep(2);
  }
}

async function removeDir(dir: string): Promise<void> {
  for (let round = 0; round < 50; round++) {
    try {
      await rmdir(dir);
      return;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return;
      await killAll(dir);
      await sleep(5);
    }
  }
}

async function fresh(dir: string): Promise<void> {
  // A directory left by a crashed judge still counts its old peak: start from a new one.
  if (existsSync(dir)) await removeDir(dir);
  await mkdir(dir);
}

/** Creates the cgroup of one box with its memory and process limits. */
export async function createBoxCgroup(
  support: CgroupSupport,
  name: string,
  memoryBytes: number,
  maxPids: number,
): Promise<BoxCgroup | undefined> {
  if (support.mode === 'v1' && support.memoryBase && support.pidsBase && support.cpuBase) {
    const mem = join(support.memoryBase, name);
    const pids = join(support.pidsBase, name);
    const cpu = join(support.cpuBase, name);
    await Promise.all([fresh(mem), fresh(pids), fresh(cpu)]);
    await writeFile(join(mem, 'memory.limit_in_bytes'), String(memoryBytes));
    try {
      // Without this the box could page out to swap instead of hitting its limit.
      await writeFile(join(mem, 'memory.memsw.limit_in_bytes'), String(memoryBytes));
    } catch {
      // swap accounting is off: there is nothing to page out to
    }
    await writeFile(join(pids, 'pids.max'), String(maxPids));
    return {
      procsFiles: [join(mem, 'cgroup.procs'), join(pids, 'cgroup.procs'), join(cpu, 'cgroup.procs')],
      async usage() {
        const [peak, oom, failcnt, cpuNs] = await Promise.all([
          readFile(join(mem, 'memory.max_usage_in_bytes'), 'utf8'),
          readFile(join(mem, 'memory.oom_control'), 'utf8'),
          readFile(join(mem, 'memory.failcnt'), 'utf8'),
          readFile(join(cpu, 'cpuacct.usage'), 'utf8'),
        ]);
        const peakBytes = Number(peak);
        const kills = Number(/oom_kill (\d+)/.exec(oom)?.[1] ?? 0);
        return {
          peakBytes,
          oomKilled: kills > 0 || (Number(failcnt) > 0 && peakBytes >= memoryBytes),
          cpuUs: Number(cpuNs) / 1000,
        };
      },
      async destroy() {
        await killAll(pids);
        await Promise.all([removeDir(mem), removeDir(pids), removeDir(cpu)]);
      },
      cases: caseMeter(mem, cpu, memoryBytes),
    };
  }
  if (support.mode === 'v2' && support.memoryBase) {
    const dir = join(support.memoryBase, name);
    await fresh(dir);
    await writeFile(join(dir, 'memory.max'), String(memoryBytes));
    try {
      await writeFile(join(dir, 'memory.swap.max'), '0');
    } catch {
      // no swap controller
    }
    await writeFile(join(dir, 'pids.max'), String(maxPids));
    return {
      procsFiles: [join(dir, 'cgroup.procs')],
      async usage() {
        let peakBytes = 0;
        try {
          peakBytes = Number(await readFile(join(dir, 'memory.peak'), 'utf8'));
        } catch {
          // memory.peak arrived in Linux 5.19; the caller falls back to maxrss
        }
        const events = await readFile(join(dir, 'memory.events'), 'utf8');
        const kills = Number(/oom_kill (\d+)/.exec(events)?.[1] ?? 0);
        // cpu.stat's usage_usec is there on every v2 cgroup, with or without the cpu controller.
        const stat = await readFile(join(dir, 'cpu.stat'), 'utf8');
        return { peakBytes, oomKilled: kills > 0, cpuUs: Number(/usage_usec (\d+)/.exec(stat)?.[1] ?? 0) };
      },
      async destroy() {
        try {
          await writeFile(join(dir, 'cgroup.kill'), '1');
        } catch {
          await killAll(dir);
        }
        await removeDir(dir);
      },
    };
  }
  return undefined;
}

function caseMeter(mem: string, cpu: string, memoryBytes: number): NonNullable<BoxCgroup['cases']> {
  let limit = memoryBytes;
  let cpuStart = 0;
  let oomStart = 0;
  const oomKills = (): number =>
    Number(/oom_kill (\d+)/.exec(readFileSync(join(mem, 'memory.oom_control'), 'utf8'))?.[1] ?? 0);
  return {
    beginCase(limitBytes) {
      if (limitBytes > limit) {
        // memsw may never be below the memory limit: raise it first.
        try {
          writeFileSync(join(mem, 'memory.memsw.limit_in_bytes'), String(limitBytes));
        } catch {
          // swap accounting is off
        }
        writeFileSync(join(mem, 'memory.limit_in_bytes'), String(limitBytes));
        limit = limitBytes;
      }
      // Writing 0 sets the peak to the current usage: the idle runner and bubblewrap only.
      writeFileSync(join(mem, 'memory.max_usage_in_bytes'), '0');
      writeFileSync(join(mem, 'memory.failcnt'), '0');
      cpuStart = Number(readFileSync(join(cpu, 'cpuacct.usage'), 'utf8'));
      oomStart = oomKills();
    },
    caseUsage() {
      const peakBytes = Number(readFileSync(join(mem, 'memory.max_usage_in_bytes'), 'utf8'));
      const failcnt = Number(readFileSync(join(mem, 'memory.failcnt'), 'utf8'));
      const cpuUs = (Number(readFileSync(join(cpu, 'cpuacct.usage'), 'utf8')) - cpuStart) / 1000;
      return { peakBytes, oomKilled: oomKills() > oomStart || (failcnt > 0 && peakBytes >= limit), cpuUs };
    },
  };
}
