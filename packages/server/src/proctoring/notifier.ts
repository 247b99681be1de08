import { Redis } from 'ioredis';

/** A proctoring change others may want to hear about at once (the proctor console, the candidate's page). */
export type ProctorChange =
  /** A record was appended to an attempt's chain (risk event, evidence, check). */
  | { type: 'record'; attemptId: number; recordId: number }
  /** Something on the attempt's tile changed (phase, phone status, latest picture, presence). */
  | { type: 'attempt'; attemptId: number }
  /** A proctor warned the candidate. */
  | { type: 'warning'; attemptId: number; warningId: number }
  /**
   * A candidate's sign-in changed (a token revoked, the account's row written): every process forgets what it
   * kept of it (services/candidateSessions.ts). Concerns no attempt: only listeners to every change hear it.
   */
  | { type: 'credentials'; candidateIds?: number[]; tokenHash?: string };

/**
 * Where proctoring changes are announced. Announcing never throws and never waits for listeners:
 * the write that caused the change has already been committed and must not fail because of them.
 */
export interface ProctorNotifier {
  /** Announces a change to every listener (in every API process, when the implementation spans them). */
  announce(change: ProctorChange): void;
  /**
   * Listens to every change, or with `attemptId` to that attempt's changes only (a candidate's stream: a change
   * reaches the streams it concerns without passing every other open stream); returns the function that stops
   * listening.
   */
  listen(fn: (change: ProctorChange) => void, attemptId?: number): () => void;
  /** Stops delivering (closes connections the implementation holds). */
  close(): Promise<void>;
}

type Listener = (change: ProctorChange) => void;

/** Announces changes to listeners in this process: the embedded default with one API process. */
export class InProcessNotifier implements ProctorNotifier {
  /** Listeners to every change (proctors' consoles). */
  private readonly everything = new Set<Listener>();
  /** Listeners to one attempt's changes, by attempt (candidates' streams). */
  private readonly byAttempt = new Map<number, Set<Listener>>();

  announce(change: ProctorChange): void {
    // Listeners run after the current write's response path, never inside it.
    queueMicrotask(() => {
      const concerned = 'attemptId' in change ? this.byAttempt.get(change.attemptId) : undefined;
      for (const fn of [...this.everything, ...(concerned ?? [])]) {
        try {
          fn(change);
        } catch {
          // A listener's failure is its own; the others still hear the change.
        }
      }
    });
  }

  listen(fn: Listener, attemptId?: number): () => void {
    // Each listening is its own entry, even of a function already listening.
    const entry: Listener = (change) => fn(change);
    if (attemptId === undefined) {
      this.everything.add(entry);
      return () => void this.everything.delete(entry);
    }
    let set = this.byAttempt.get(attemptId);
    if (!set) this.byAttempt.set(attemptId, (set = new Set()));
    set.add(entry);
    return () => {
      set.delete(entry);
      if (set.size === 0 && this.byAttempt.get(attemptId) === set) this.byAttempt.delete(attemptId);
    };
  }

  async close(): Promise<void> {
    this.everything.clear();
    this.byAttempt.clear();
  }
}

/** The Redis channel every API process publishes proctoring changes on. */
export const PROCTOR_CHANNEL = 'examhall:proctor';

/** A change as it travels on the channel, checked on arrival: another process may run other code. */
function parseChange(text: string): ProctorChange | null {
  try {
    const v = JSON.parse(text) as Record<string, unknown>;
    if (v.type === 'credentials') {
      const ids = Array.isArray(v.candidateIds) ? v.candidateIds.filter((id) => typeof id === 'number') : [];
      const tokenHash = typeof v.tokenHash === 'string' ? { tokenHash: v.tokenHash } : {};
      return { type: 'credentials', ...(ids.length > 0 ? { candidateIds: ids } : {}), ...tokenHash };
    }
    if (typeof v.attemptId !== 'number') return null;
    if (v.type === 'record' && typeof v.recordId === 'number')
      return { type: 'record', attemptId: v.attemptId, recordId: v.recordId };
    if (v.type === 'attempt') return { type: 'attempt', attemptId: v.attemptId };
    if (v.type === 'warning' && typeof v.warningId === 'number')
      return { type: 'warning', attemptId: v.attemptId, warningId: v.warningId };
    return null;
  } catch {
    return null;
  }
}

/**
 * Announces changes through Redis pub/sub on one channel, so that a proctor connected to one API process
 * sees what a candidate did through another. Listeners in this process hear changes only once they have
 * come back from Redis, so every process sees the same order.
 */
export class RedisNotifier implements ProctorNotifier {
  private readonly pub: Redis;
  private readonly sub: Redis;
  private readonly local = new InProcessNotifier();
  /** Settles once the subscription is in place; announcing before that would be lost to this process. */
  readonly ready: Promise<void>;

  constructor(
    url: string,
    private readonly log?: { warn(obj: object, msg: string): void },
    /** The channel; processes that should hear each other use the same one (tests use their own). */
    private readonly channel: string = PROCTOR_CHANNEL,
  ) {
    this.pub = new Redis(url, { maxRetriesPerRequest: 2 });
    // A subscribed connection can do nothing else: publishing needs the second one.
    this.sub = new Redis(url);
    this.sub.on('message', (channel: string, message: string) => {
      if (channel !== this.channel) return;
      const change = parseChange(message);
      if (change) this.local.announce(change);
    });
    // Errors are retried by ioredis; an unhandled 'error' event would end the process.
    for (const conn of [this.pub, this.sub]) {
      conn.on('error', (err: Error) => this.log?.warn({ err: err.message }, 'proctor notifier: redis error'));
    }
    this.ready = this.sub.subscribe(this.channel).then(() => undefined);
    this.ready.catch(() => undefined);
  }

  announce(change: ProctorChange): void {
    this.pub.publish(this.channel, JSON.stringify(change)).catch((err: unknown) => {
      this.log?.warn({ err: err instanceof Error ? err.message : String(err), change }, 'proctor change not announced');
    });
  }

  listen(fn: (change: ProctorChange) => void, attemptId?: number): () => void {
    return this.local.listen(fn, attemptId);
  }

  async close(): Promise<void> {
    await this.local.close();
    await Promise.allSettled([this.sub.quit(), this.pub.quit()]);
  }
}
