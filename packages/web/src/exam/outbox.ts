/**
 * Zero lost answers: every change is written to the durable store before anything is sent, a
 * single sender sends the entries in the order they were made, and an entry leaves the store
 * only when the server's receipt names it (or a newer change of the same question). Until the
 * store has it, the question's newest change is noted in a synchronous journal, which the next
 * visit takes back, so a page that goes away mid-write loses nothing either. Failed sends
 * are retried with backoff; offline and failing networks are visible in the snapshot and are
 * recorded as risk events through the same outbox, so they survive a reload too.
 *
 * Framework-free: the store, the transport, the clock and the timers are injected.
 */
import { detail, RISK_EVENTS, type AnswerEvent, type AnswerValue } from '@examhall/contract';
import type { OutboxChannel, OutboxEntry, OutboxStore } from './outboxStore.js';
import { ownedBy } from '../session/owner.js';
import type { StagedChange, StagedJournal } from './stagedJournal.js';

export type { OutboxChannel, OutboxEntry, OutboxStore } from './outboxStore.js';

/** What the server confirmed: the sequence number it acknowledged for the question. */
export interface Receipt {
  seq: number;
}

/**
 * How a failed send is handled: retried later, retried once the candidate has logged in again (the session is gone:
 * not the network's fault), the attempt is over, or the server refuses this entry for good.
 */
export type FailureKind = 'retry' | 'signedOut' | 'finished' | 'rejected';

/** What the outbox needs from its surroundings. */
export interface OutboxDeps {
  store: OutboxStore;
  /** Sends one entry; answers the receipt (null for calls without one, such as risk records). */
  send: (entry: OutboxEntry) => Promise<Receipt | null>;
  /** Sorts a failure. */
  classify: (error: unknown) => FailureKind;
  /** Server-aligned epoch ms. */
  now: () => number;
  /** A new client id. */
  newId: () => string;
  /** Timers (injected for tests). */
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
  /** Whether the browser believes it is online at the start. */
  online?: boolean;
  /** Notes of the changes on their way to the store (localStorage in the browser); none, and a page that goes away
   * mid-write loses the change it was writing. */
  journal?: StagedJournal;
  /**
   * The candidate logged in on this browser now (null: not known). Changes are noted as theirs; another
   * candidate's are neither shown nor sent, and wait in the store for their own login.
   */
  owner?: () => number | null;
}

/** Save state of one question. */
export type SaveState = 'saved' | 'saving' | 'unsaved';

/** What the page shows about the outbox. */
export interface OutboxSnapshot {
  /** The browser's online flag as last reported. */
  online: boolean;
  /** Consecutive failed sends; 0 after any success. */
  failures: number;
  /** True while the last failure was a session that is gone (the changes wait for a new login); false after any success. */
  signedOut: boolean;
  /** True once a write was refused because the attempt is over. */
  finished: boolean;
  /** Changes waiting per question key (`channel:subject_id`), counting answers only, not events. */
  pending: ReadonlyMap<string, number>;
  /** Entries the server refused for good, with the reason, by client id. */
  rejected: ReadonlyMap<string, { key: string; error: unknown }>;
  /** Entries of any kind still waiting. */
  total: number;
}

/** Sends slower than this count as an unstable network. */
export const SLOW_SEND_MS = 5_000;
/** Consecutive failures while online that count as an unstable network. */
export const UNSTABLE_AFTER_FAILURES = 3;
/** Longest wait between two retries. */
export const MAX_BACKOFF_MS = 30_000;

/** The delay before retry number `failures` (1-based): 1 s doubling to MAX_BACKOFF_MS, with ±20 % jitter. */
export function backoffMs(failures: number, random: () => number = Math.random): number {
  const base = Math.min(MAX_BACKOFF_MS, 1_000 * 2 ** Math.max(0, failures - 1));
  return Math.round(base * (0.8 + 0.4 * random()));
}

/** Key of a question in the snapshot. */
export function questionKey(channel: OutboxChannel, subjectId: number): string {
  return `${channel}:${subjectId}`;
}

/** How many changes wait to reach the server, over every question. */
export function pendingCount(snapshot: OutboxSnapshot): number {
  let n = 0;
  for (const count of snapshot.pending.values()) n += count;
  return n;
}

/**
 * The save state of a question: saved when nothing waits, saving while the sender gets through,
 * unsaved otherwise (offline, failing, the attempt over, or a change the server refused).
 */
export function saveStateOf(snapshot: OutboxSnapshot, key: string): SaveState {
  if (!snapshot.pending.get(key)) return 'saved';
  for (const r of snapshot.rejected.values()) if (r.key === key) return 'unsaved';
  return snapshot.online && snapshot.failures === 0 && !snapshot.finished ? 'saving' : 'unsaved';
}

/** The stable code a failure carries (the API client's errors have one), for the record of an unstable network. */
function codeOf(error: unknown): string | undefined {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
}

/** A change the page hands to the outbox. */
export type Change =
  | { channel: 'answer'; subject_id: number; answer?: AnswerValue; event?: AnswerEvent }
  | { channel: 'ceping'; subject_id: number; option: string };

const carriesAnswer = (e: OutboxEntry) => e.answer !== undefined || e.option !== undefined;

/** The journal's note of a change that carries an answer, made by `author`. */
function noteOf(change: Change, changedAt: number, author: { candidate_id?: number }): StagedChange | null {
  if (change.channel === 'ceping') {
    const { channel, subject_id, option } = change;
    return { channel, subject_id, option, changed_at: changedAt, ...author };
  }
  return change.answer === undefined
    ? null
    : { channel: 'answer', subject_id: change.subject_id, answer: change.answer, changed_at: changedAt, ...author };
}

/** The outbox of one exam. */
export class Outbox {
  private readonly entries = new Map<string, OutboxEntry>();
  /** Changes handed over but not yet in browser storage, per question: they are not saved either. */
  private readonly staged = new Map<string, number>();
  private readonly rejected = new Map<string, { key: string; error: unknown }>();
  private readonly listeners = new Set<() => void>();
  private readonly setTimer: (fn: () => void, ms: number) => unknown;
  private readonly clearTimer: (handle: unknown) => void;
  private online: boolean;
  private failures = 0;
  private finished = false;
  private unstableRecorded = false;
  private signedOut = false;
  private inFlight: string | null = null;
  private running = false;
  private again = false;
  private retryTimer: unknown = null;
  private lastOrder = 0;
  private chain: Promise<unknown> = Promise.resolve();
  private stopped = false;
  private snapshot: OutboxSnapshot;

  private constructor(
    readonly examId: number,
    private readonly deps: OutboxDeps,
  ) {
    this.setTimer = deps.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
    this.clearTimer = deps.clearTimer ?? ((h) => clearTimeout(h as ReturnType<typeof setTimeout>));
    this.online = deps.online ?? true;
    this.snapshot = this.buildSnapshot();
  }

  /** Loads what an earlier visit left unsent and starts sending it. */
  static async open(examId: number, deps: OutboxDeps): Promise<Outbox> {
    const box = new Outbox(examId, deps);
    const owner = box.owner();
    for (const e of await deps.store.list(examId)) {
      box.lastOrder = Math.max(box.lastOrder, e.order);
      if (ownedBy(e, owner)) box.entries.set(e.client_id, e);
    }
    // Changes an earlier visit noted but had not stored when it went away: stored now, as the newest of their
    // questions (a note is forgotten only once its change is stored, so nothing newer can be in the store).
    const notes = (deps.journal?.read(examId) ?? []).filter((n) => ownedBy(n, owner));
    await Promise.all(
      notes.map((n) =>
        box
          .stage(n, n.changed_at, n.candidate_id === undefined ? box.author() : { candidate_id: n.candidate_id })
          .catch(() => undefined),
      ),
    );
    box.emit();
    // A page opened (or reloaded) without a network is offline from its first moment: that is recorded too,
    // unless the offline record of the visit before is still waiting to be sent.
    if (!box.online && !box.waitingRisk(RISK_EVENTS.offline.id)) {
      void box.recordRisk(RISK_EVENTS.offline.id, detail.pageOpenedOffline()).catch(() => undefined);
    }
    box.kick();
    return box;
  }

  private owner(): number | null {
    return this.deps.owner?.() ?? null;
  }

  /** The candidate a new change is noted as made by. */
  private author(): { candidate_id?: number } {
    const owner = this.owner();
    return owner === null ? {} : { candidate_id: owner };
  }

  private waitingRisk(risk: number): boolean {
    for (const e of this.entries.values()) if (e.channel === 'risk' && e.risk === risk) return true;
    return false;
  }

  /** Stops sending (the page is leaving); nothing stored is touched. */
  close(): void {
    this.stopped = true;
    if (this.retryTimer !== null) this.clearTimer(this.retryTimer);
    this.retryTimer = null;
    this.listeners.clear();
  }

  /** Subscribes to snapshot changes (useSyncExternalStore-shaped). */
  subscribe = (fn: () => void): (() => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };

  /** The current snapshot; the same object until something changes. */
  getSnapshot = (): OutboxSnapshot => this.snapshot;

  /** The newest unsent answer per question key, to lay over the server's copy after a reload. */
  pendingAnswers(): Map<string, OutboxEntry> {
    const latest = new Map<string, OutboxEntry>();
    for (const e of this.sorted()) {
      if (e.channel === 'risk' || !carriesAnswer(e)) continue;
      const key = questionKey(e.channel, e.subject_id);
      const prev = latest.get(key);
      if (!prev || prev.seq < e.seq) latest.set(key, e);
    }
    return latest;
  }

  /** Risk records not yet confirmed by the server, oldest first (sent by beacon when the page goes away). */
  pendingRisks(): OutboxEntry[] {
    const owner = this.owner();
    return this.sorted().filter((e) => e.channel === 'risk' && !this.rejected.has(e.client_id) && ownedBy(e, owner));
  }

  /**
   * Stores a change, then lets the sender go. Resolves once the change is durable. An unsent
   * answer of the same question that is not on the wire is replaced, since the newer one
   * overwrites it anyway; events are never merged away.
   */
  enqueue(change: Change): Promise<OutboxEntry> {
    return this.stage(change, Math.round(this.deps.now()));
  }

  /** Stores a change `author` made at `now` (enqueue's work; also a journal's note taken back). */
  private stage(change: Change, now: number, author = this.author()): Promise<OutboxEntry> {
    const key = questionKey(change.channel, change.subject_id);
    // Counted as pending from this moment: storing it takes a while, and meanwhile the page must not say 'saved';
    // and noted, so that a page gone before the store has it does not lose it (each candidate's notes apart).
    const note = noteOf(change, now, author);
    const noteKey = author.candidate_id === undefined ? key : `${author.candidate_id}/${key}`;
    if (note) {
      this.staged.set(key, (this.staged.get(key) ?? 0) + 1);
      this.deps.journal?.note(this.examId, noteKey, note);
      this.emit();
    }
    const run = async () => {
      // Seconds since the epoch as a floor keep sequence numbers growing across devices and
      // cleared storage, and stay within a 32-bit column until 2038.
      const seq = await this.deps.store.nextSeq(`${this.examId}:${key}`, Math.floor(now / 1000));
      const entry: OutboxEntry = {
        client_id: this.deps.newId(),
        exam_id: this.examId,
        channel: change.channel,
        subject_id: change.subject_id,
        seq,
        changed_at: now,
        order: this.nextOrder(now),
        ...author,
        ...(change.channel === 'answer'
          ? {
              ...(change.answer !== undefined ? { answer: change.answer } : {}),
              ...(change.event !== undefined ? { event: change.event } : {}),
            }
          : { option: change.option }),
      };
      const replaced = carriesAnswer(entry) && entry.event === undefined ? this.replaceableFor(key, entry) : undefined;
      await this.deps.store.put(entry, replaced?.client_id);
      if (replaced) this.entries.delete(replaced.client_id);
      this.entries.set(entry.client_id, entry);
      // A change that could not be stored stays counted (and noted), so its question never shows as saved.
      if (note) {
        const left = (this.staged.get(key) ?? 1) - 1;
        if (left > 0) this.staged.set(key, left);
        else {
          this.staged.delete(key);
          this.deps.journal?.forget(this.examId, noteKey);
        }
      }
      this.emit();
      this.kick();
      return entry;
    };
    const result = this.chain.then(run);
    this.chain = result.catch(() => undefined);
    return result;
  }

  /** Queues a risk record (offline 10, network unstable 20), naming the picture it was seen on when there is one. */
  recordRisk(risk: number, detail?: string, imageKey?: string): Promise<OutboxEntry> {
    const run = async () => {
      const now = Math.round(this.deps.now());
      const entry: OutboxEntry = {
        client_id: this.deps.newId(),
        exam_id: this.examId,
        channel: 'risk',
        subject_id: 0,
        seq: 0,
        changed_at: now,
        order: this.nextOrder(now),
        risk,
        ...(detail !== undefined ? { detail } : {}),
        ...(imageKey !== undefined ? { image_key: imageKey } : {}),
        ...this.author(),
      };
      await this.deps.store.put(entry);
      this.entries.set(entry.client_id, entry);
      this.emit();
      this.kick();
      return entry;
    };
    const result = this.chain.then(run);
    this.chain = result.catch(() => undefined);
    return result;
  }

  /** The browser went offline or online. Going offline is recorded; coming back sends at once. */
  setOnline(online: boolean): void {
    if (online === this.online) return;
    this.online = online;
    this.emit();
    if (!online) {
      void this.recordRisk(RISK_EVENTS.offline.id, detail.browserOffline()).catch(() => undefined);
      return;
    }
    this.failures = 0;
    this.emit();
    this.kick(true);
  }

  /** Sends what waits now, cutting a retry wait short: the cause of the failures is gone (a new login). */
  retryNow(): void {
    this.failures = 0;
    this.emit();
    this.kick(true);
  }

  /**
   * Sends everything now (before a submit) and resolves when nothing waits, the attempt is
   * over, or `timeoutMs` has passed; answers how many entries still wait.
   */
  async drain(timeoutMs: number): Promise<number> {
    await this.chain;
    this.kick(true);
    const deadline = Date.now() + timeoutMs;
    while (this.waiting() > 0 && !this.finished && !this.stopped && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      if (!this.running && this.retryTimer === null) this.kick(true);
    }
    return this.waiting();
  }

  private waiting(): number {
    let n = 0;
    for (const id of this.entries.keys()) if (!this.rejected.has(id)) n++;
    return n;
  }

  private nextOrder(now: number): number {
    this.lastOrder = Math.max(this.lastOrder + 1, now);
    return this.lastOrder;
  }

  /** An unsent answer of the question, by the same candidate, that `entry` makes needless. */
  private replaceableFor(key: string, entry: OutboxEntry): OutboxEntry | undefined {
    for (const e of this.entries.values()) {
      if (e.client_id === entry.client_id || e.client_id === this.inFlight || this.rejected.has(e.client_id)) continue;
      if (e.channel === 'risk' || e.event !== undefined || !carriesAnswer(e)) continue;
      if (e.candidate_id !== entry.candidate_id) continue;
      if (questionKey(e.channel, e.subject_id) === key) return e;
    }
    return undefined;
  }

  private sorted(): OutboxEntry[] {
    return [...this.entries.values()].sort((a, b) => a.order - b.order);
  }

  /** Starts the sender unless it runs or waits for a retry; `now` cuts a retry wait short. */
  private kick(now = false): void {
    if (this.stopped || this.finished) return;
    if (this.retryTimer !== null) {
      if (!now) return;
      this.clearTimer(this.retryTimer);
      this.retryTimer = null;
    }
    if (this.running) {
      this.again = true;
      return;
    }
    void this.run();
  }

  private async run(): Promise<void> {
    this.running = true;
    try {
      do {
        this.again = false;
        for (const entry of this.sorted()) {
          if (this.stopped || this.finished) return;
          if (!this.entries.has(entry.client_id) || this.rejected.has(entry.client_id)) continue;
          // Another candidate logged in on this page: nothing is sent with their login; a login of the
          // candidate who made the changes sends them (retryNow).
          if (!ownedBy(entry, this.owner())) return;
          if (!(await this.sendOne(entry))) return;
        }
      } while (this.again && !this.stopped);
    } finally {
      this.running = false;
    }
  }

  /** Sends one entry; false when the sender must stop (retry scheduled or attempt over). */
  private async sendOne(entry: OutboxEntry): Promise<boolean> {
    this.inFlight = entry.client_id;
    const started = Date.now();
    try {
      const receipt = await this.deps.send(entry);
      if (Date.now() - started > SLOW_SEND_MS) this.markUnstable(detail.slowResponse(Date.now() - started));
      else this.unstableRecorded = false;
      await this.acknowledge(entry, receipt);
      if (this.failures !== 0) this.failures = 0;
      this.signedOut = false;
      this.emit();
      return true;
    } catch (error) {
      const kind = this.deps.classify(error);
      if (kind === 'finished') {
        this.finished = true;
        this.emit();
        return false;
      }
      if (kind === 'rejected') {
        this.rejected.set(entry.client_id, {
          key: questionKey(entry.channel, entry.subject_id),
          error,
        });
        this.emit();
        return true;
      }
      this.failures += 1;
      // A lost session is not an unstable network: the page says so apart, and nothing is recorded against it.
      this.signedOut = kind === 'signedOut';
      if (this.online && !this.signedOut && this.failures >= UNSTABLE_AFTER_FAILURES) {
        const message = error instanceof Error ? error.message : String(error);
        this.markUnstable(detail.failedSends(this.failures, message, codeOf(error)));
      }
      this.emit();
      this.retryTimer = this.setTimer(() => {
        this.retryTimer = null;
        this.kick();
      }, backoffMs(this.failures));
      return false;
    } finally {
      this.inFlight = null;
    }
  }

  /** Once per bad stretch: the record waits in the outbox like everything else. */
  private markUnstable(detail: string): void {
    if (this.unstableRecorded) return;
    this.unstableRecorded = true;
    void this.recordRisk(RISK_EVENTS.networkUnstable.id, detail).catch(() => undefined);
  }

  /** Removes the entry and every older answer of the same question that the receipt covers. */
  private async acknowledge(entry: OutboxEntry, receipt: Receipt | null): Promise<void> {
    const gone = [entry.client_id];
    if (receipt && entry.channel !== 'risk') {
      for (const e of this.entries.values()) {
        if (e.client_id === entry.client_id || e.channel !== entry.channel || e.subject_id !== entry.subject_id)
          continue;
        if (carriesAnswer(e) && e.event === undefined && e.seq <= receipt.seq) gone.push(e.client_id);
      }
    }
    await this.deps.store.remove(gone);
    for (const id of gone) this.entries.delete(id);
  }

  private buildSnapshot(): OutboxSnapshot {
    const pending = new Map<string, number>(this.staged);
    for (const e of this.entries.values()) {
      if (e.channel === 'risk' || !carriesAnswer(e)) continue;
      const key = questionKey(e.channel, e.subject_id);
      pending.set(key, (pending.get(key) ?? 0) + 1);
    }
    return {
      online: this.online,
      failures: this.failures,
      signedOut: this.signedOut,
      finished: this.finished,
      pending,
      rejected: new Map(this.rejected),
      total: this.entries.size,
    };
  }

  private emit(): void {
    this.snapshot = this.buildSnapshot();
    for (const fn of this.listeners) fn();
  }
}
