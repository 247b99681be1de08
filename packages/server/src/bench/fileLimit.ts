/**
 * Open files the exam bench needs, and whether this machine lets it have them. Each candidate's event stream is a
 * connection held open in the server (its share, with several API processes) and in the load process, so a run of
 * N candidates needs somewhat more than N open files in each. A process may raise its soft limit up to the hard
 * one, and only a privileged process (CAP_SYS_RESOURCE) past it: a run beyond the hard limit cannot open its
 * streams, and says so before it starts instead of failing thousands of them with EMFILE.
 */
import fs from 'node:fs';

/** A process's open-file limits (RLIMIT_NOFILE). */
export interface FileLimit {
  soft: number;
  hard: number;
}

/** Files a process holds besides the streams: the pool's sockets, the database, logs, listeners, the store. */
export const FILES_BESIDES_STREAMS = 512;

/** The open-file limits of this process from /proc/self/limits ('unlimited' as Infinity), or null off Linux. */
export function readFileLimit(text?: string): FileLimit | null {
  let limits = text;
  if (limits === undefined) {
    try {
      limits = fs.readFileSync('/proc/self/limits', 'utf8');
    } catch {
      return null;
    }
  }
  const line = /^Max open files\s+(\S+)\s+(\S+)/m.exec(limits);
  if (!line) return null;
  const value = (s: string) => (s === 'unlimited' ? Infinity : Number(s));
  return { soft: value(line[1]!), hard: value(line[2]!) };
}

/** Open files the busiest process of a run needs: the load process holds every stream and the pool's sockets. */
export function filesNeeded(o: { candidates: number; apiProcesses: number; sockets: number }): number {
  const load = o.candidates + o.sockets * o.apiProcesses + FILES_BESIDES_STREAMS;
  const server = Math.ceil(o.candidates / o.apiProcesses) + o.sockets + FILES_BESIDES_STREAMS;
  return Math.max(load, server);
}

/** What to do about the limit: go on, raise the soft limit (the server inherits it), or refuse with the reason. */
export type LimitVerdict = { kind: 'enough' } | { kind: 'raise'; to: number } | { kind: 'refuse'; reason: string };

/** The verdict for `needed` open files under `limit` (null: not known, go on); `most` is the largest run it holds. */
export function fileLimitVerdict(needed: number, limit: FileLimit | null, most?: number): LimitVerdict {
  if (!limit || needed <= limit.soft) return { kind: 'enough' };
  if (needed <= limit.hard) return { kind: 'raise', to: needed };
  return {
    kind: 'refuse',
    reason:
      `this run holds every candidate's event stream open: it needs about ${needed} open files in one process, and ` +
      `this machine allows ${limit.hard} (the hard limit of open files; only a privileged process may raise it: ` +
      `ulimit -Hn, /etc/security/limits.conf, or a container's --ulimit nofile)` +
      (most !== undefined && most > 0 ? `; at most ${most} candidates fit here.` : '.'),
  };
}

/** The most candidates whose streams fit under `hard` open files in every process of a run. */
export function mostCandidates(hard: number, o: { apiProcesses: number; sockets: number }): number {
  return Math.max(0, hard - o.sockets * o.apiProcesses - FILES_BESIDES_STREAMS);
}
