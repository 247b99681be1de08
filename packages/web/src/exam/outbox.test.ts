import { IDBFactory } from 'fake-indexeddb';
import 'fake-indexeddb/auto';
import { detail, RISK_EVENTS } from '@examhall/contract';
import { describe, expect, it } from 'vitest';
import {
  backoffMs,
  MAX_BACKOFF_MS,
  Outbox,
  questionKey,
  saveStateOf,
  type FailureKind,
  type OutboxEntry,
  type Receipt,
} from './outbox.js';
import { openIndexedDbStore, type OutboxStore } from './outboxStore.js';
import { storageJournal, type StagedJournal } from './stagedJournal.js';
import { memoryStorage } from '../test/memoryStorage.js';

const EXAM = 7;
const NOW = Date.UTC(2025, 5, 1, 2, 0, 0);

class Fail extends Error {
  constructor(readonly kind: FailureKind) {
    super(`failed: ${kind}`);
  }
}

/** A server stand-in: records what arrives, answers receipts, or fails as told. */
function fakeServer() {
  const received: OutboxEntry[] = [];
  const failures: FailureKind[] = [];
  let storeAtSend: ((e: OutboxEntry) => Promise<void>) | null = null;
  return {
    received,
    failNext: (...kinds: FailureKind[]) => failures.push(...kinds),
    checkStoreOnSend: (fn: (e: OutboxEntry) => Promise<void>) => (storeAtSend = fn),
    send: async (entry: OutboxEntry): Promise<Receipt | null> => {
      if (storeAtSend) await storeAtSend(entry);
      const kind = failures.shift();
      if (kind) throw new Fail(kind);
      received.push(entry);
      return entry.channel === 'risk' ? null : { seq: entry.seq };
    },
  };
}

/** Manual timers, so backoff is observable without waiting. */
function manualTimers() {
  const timers: { fn: () => void; ms: number }[] = [];
  return {
    timers,
    setTimer: (fn: () => void, ms: number) => {
      const t = { fn, ms };
      timers.push(t);
      return t;
    },
    clearTimer: (h: unknown) => {
      const i = timers.indexOf(h as { fn: () => void; ms: number });
      if (i >= 0) timers.splice(i, 1);
    },
    fire: () => timers.splice(0).forEach((t) => t.fn()),
  };
}

async function setup(
  opts: {
    factory?: IDBFactory;
    online?: boolean;
    server?: ReturnType<typeof fakeServer>;
    journal?: StagedJournal;
    /** Wraps the IndexedDB store (to hold its writes back). */
    wrap?: (store: OutboxStore) => OutboxStore;
    now?: () => number;
  } = {},
) {
  const factory = opts.factory ?? new IDBFactory();
  const idb = await openIndexedDbStore(factory);
  const store = opts.wrap ? opts.wrap(idb) : idb;
  const server = opts.server ?? fakeServer();
  const timers = manualTimers();
  let n = 0;
  const box = await Outbox.open(EXAM, {
    store,
    send: server.send,
    classify: (e) => (e instanceof Fail ? e.kind : 'retry'),
    now: opts.now ?? (() => NOW),
    newId: () => `client-${++n}-${Math.random().toString(36).slice(2, 8)}`,
    setTimer: timers.setTimer,
    clearTimer: timers.clearTimer,
    online: opts.online ?? true,
    ...(opts.journal ? { journal: opts.journal } : {}),
  });
  return { factory, store, server, timers, box };
}

/** Waits until the sender has nothing left to do (all promises settled). */
async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise((r) => setTimeout(r, 0));
}

const choice = (option: string) => ({ kind: 'choice' as const, option });

describe('Outbox', () => {
  it('stores a change before it is sent and removes it only after the receipt', async () => {
    const { box, store, server } = await setup();
    server.checkStoreOnSend(async (e) => {
      const stored = await store.list(EXAM);
      expect(stored.map((s) => s.client_id)).toContain(e.client_id);
    });
    const entry = await box.enqueue({ channel: 'answer', subject_id: 3, answer: choice('B') });
    await settle();
    expect(server.received.map((e) => e.client_id)).toEqual([entry.client_id]);
    expect(await store.list(EXAM)).toEqual([]);
    expect(saveStateOf(box.getSnapshot(), questionKey('answer', 3))).toBe('saved');
  });

  it('gives each change of a question a growing sequence number, at least the server second', async () => {
    const { box } = await setup({ online: false });
    const a = await box.enqueue({ channel: 'answer', subject_id: 3, event: 5 });
    const b = await box.enqueue({ channel: 'answer', subject_id: 3, answer: choice('A') });
    const c = await box.enqueue({ channel: 'answer', subject_id: 4, answer: choice('A') });
    expect(a.seq).toBeGreaterThanOrEqual(Math.floor(NOW / 1000));
    expect(b.seq).toBe(a.seq + 1);
    expect(c.seq).toBe(Math.floor(NOW / 1000));
    expect(b.order).toBeGreaterThan(a.order);
  });

  it('keeps failed changes, shows them unsaved, and retries with backoff until a receipt arrives', async () => {
    const { box, store, server, timers } = await setup();
    server.failNext('retry');
    await box.enqueue({ channel: 'answer', subject_id: 3, answer: choice('C') });
    await settle();
    expect(server.received).toHaveLength(0);
    expect(box.getSnapshot().failures).toBe(1);
    expect(saveStateOf(box.getSnapshot(), questionKey('answer', 3))).toBe('unsaved');
    expect(await store.list(EXAM)).toHaveLength(1);
    expect(timers.timers).toHaveLength(1);
    expect(timers.timers[0]!.ms).toBeGreaterThanOrEqual(800);

    timers.fire();
    await settle();
    expect(server.received).toHaveLength(1);
    expect(box.getSnapshot().failures).toBe(0);
    expect(await store.list(EXAM)).toEqual([]);
  });

  it('sends at once when told the cause of the failures is gone (a new login), without waiting for the backoff', async () => {
    const { box, server, timers } = await setup();
    server.failNext('retry', 'retry');
    await box.enqueue({ channel: 'answer', subject_id: 3, answer: choice('C') });
    await settle();
    timers.fire();
    await settle();
    expect(box.getSnapshot().failures).toBe(2);
    expect(timers.timers).toHaveLength(1);
    box.retryNow();
    await settle();
    expect(server.received).toHaveLength(1);
    expect(timers.timers).toHaveLength(0);
    expect(box.getSnapshot().failures).toBe(0);
  });

  it('comes back after a reload with the unsent changes and resends them with the same client ids', async () => {
    const first = await setup({ online: false });
    first.server.failNext('retry', 'retry', 'retry', 'retry', 'retry');
    const sent = [];
    for (let q = 1; q <= 10; q++) {
      sent.push(await first.box.enqueue({ channel: 'answer', subject_id: q, answer: choice('A') }));
    }
    first.box.close();

    const server = fakeServer();
    const second = await setup({ factory: first.factory, online: false, server });
    const restored = second.box.pendingAnswers();
    expect([...restored.keys()].sort()).toEqual(sent.map((e) => questionKey('answer', e.subject_id)).sort());
    expect(saveStateOf(second.box.getSnapshot(), questionKey('answer', 1))).toBe('unsaved');

    second.box.setOnline(true);
    await settle();
    expect(server.received.filter((e) => e.channel === 'answer').map((e) => e.client_id)).toEqual(
      sent.map((e) => e.client_id),
    );
    expect(await second.store.list(EXAM)).toEqual([]);
  });

  it('replaces an unsent answer of the same question but never merges events away', async () => {
    const server = fakeServer();
    server.failNext(...Array<FailureKind>(10).fill('retry'));
    const { box, store } = await setup({ online: false, server });
    const enter = await box.enqueue({ channel: 'answer', subject_id: 3, event: 5 });
    await box.enqueue({ channel: 'answer', subject_id: 3, answer: choice('A') });
    const latest = await box.enqueue({ channel: 'answer', subject_id: 3, answer: choice('B') });
    const stored = (await store.list(EXAM)).filter((e) => e.channel !== 'risk');
    expect(stored.map((e) => e.client_id)).toEqual([enter.client_id, latest.client_id]);
    expect(box.getSnapshot().pending.get(questionKey('answer', 3))).toBe(1);
  });

  it('drops older answers of a question once a receipt covers a newer sequence number', async () => {
    const factory = new IDBFactory();
    const store: OutboxStore = await openIndexedDbStore(factory);
    // Two answers left by an earlier visit, the second one newer.
    const base = { exam_id: EXAM, channel: 'answer' as const, subject_id: 9, changed_at: NOW };
    await store.put({ ...base, client_id: 'old-answer-1', seq: 10, order: 1, answer: choice('A') });
    await store.put({ ...base, client_id: 'new-answer-2', seq: 11, order: 2, answer: choice('B') });
    const received: string[] = [];
    const box = await Outbox.open(EXAM, {
      store,
      send: (e) => {
        received.push(e.client_id);
        // The server already holds seq 11 (sent before the reload), so it answers with it.
        return Promise.resolve({ seq: 11 });
      },
      classify: () => 'retry',
      now: () => NOW,
      newId: () => 'unused-id',
    });
    await settle();
    expect(received).toEqual(['old-answer-1']);
    expect(await store.list(EXAM)).toEqual([]);
    box.close();
  });

  it('records going offline (risk 10) and sends it with the answers once back online', async () => {
    const { box, server } = await setup();
    box.setOnline(false);
    await box.enqueue({ channel: 'answer', subject_id: 1, answer: choice('A') });
    await settle();
    // Offline, the sender still tries; the attempts fail like a real fetch would.
    expect(box.getSnapshot().online).toBe(false);
    box.setOnline(true);
    await settle();
    const risks = server.received.filter((e) => e.channel === 'risk');
    expect(risks.map((r) => r.risk)).toEqual([RISK_EVENTS.offline.id]);
    expect(server.received.some((e) => e.subject_id === 1)).toBe(true);
  });

  it('records a page opened offline (risk 10) once, even across reloads before it is sent', async () => {
    const first = await setup({ online: false });
    first.server.failNext(...Array<FailureKind>(5).fill('retry'));
    await settle();
    first.box.close();
    const waiting = (await first.store.list(EXAM)).filter((e) => e.channel === 'risk');
    expect(waiting.map((e) => [e.risk, e.detail])).toEqual([[RISK_EVENTS.offline.id, detail.pageOpenedOffline()]]);

    const server = fakeServer();
    const second = await setup({ factory: first.factory, online: false, server });
    second.box.setOnline(true);
    await settle();
    expect(server.received.filter((e) => e.channel === 'risk').map((e) => e.risk)).toEqual([RISK_EVENTS.offline.id]);

    const online = await setup();
    await settle();
    expect(online.server.received).toEqual([]);
  });

  it('records an unstable network (risk 20) once when sends keep failing while online', async () => {
    const { box, server, timers } = await setup();
    server.failNext('retry', 'retry', 'retry', 'retry');
    await box.enqueue({ channel: 'answer', subject_id: 1, answer: choice('A') });
    for (let i = 0; i < 4; i++) {
      await settle();
      timers.fire();
    }
    await settle();
    const risks = server.received.filter((e) => e.channel === 'risk');
    expect(risks.map((r) => r.risk)).toEqual([RISK_EVENTS.networkUnstable.id]);
    expect(server.received.some((e) => e.subject_id === 1)).toBe(true);
  });

  it('keeps the error code of the failed sends in the unstable network record', async () => {
    const timedOut = Object.assign(new Error('request timed out'), { code: 'timeout' });
    const server = fakeServer();
    const send = server.send;
    let left = 3;
    server.send = (e) => (left-- > 0 ? Promise.reject(timedOut) : send(e));
    const { box, timers } = await setup({ server });
    await box.enqueue({ channel: 'answer', subject_id: 1, answer: choice('A') });
    for (let i = 0; i < 4; i++) {
      await settle();
      timers.fire();
    }
    await settle();
    const risks = server.received.filter((e) => e.channel === 'risk');
    expect(risks.map((r) => r.detail)).toEqual([detail.failedSends(3, 'request timed out', 'timeout')]);
  });

  it('tells a lost session apart from an unstable network, records nothing for it, and forgets it once sent', async () => {
    const { box, server, timers } = await setup();
    server.failNext('signedOut', 'signedOut', 'signedOut', 'signedOut');
    await box.enqueue({ channel: 'answer', subject_id: 1, answer: choice('A') });
    for (let i = 0; i < 4; i++) {
      await settle();
      expect(box.getSnapshot()).toMatchObject({ signedOut: true, failures: i + 1 });
      timers.fire();
    }
    await settle();
    expect(box.getSnapshot()).toMatchObject({ signedOut: false, failures: 0 });
    expect(server.received.filter((e) => e.channel === 'risk')).toEqual([]);
    expect(server.received.some((e) => e.subject_id === 1)).toBe(true);
  });

  it('stops once the attempt is over and keeps what was not acknowledged', async () => {
    const { box, server, store } = await setup();
    server.failNext('finished');
    await box.enqueue({ channel: 'answer', subject_id: 1, answer: choice('A') });
    await settle();
    expect(box.getSnapshot().finished).toBe(true);
    expect(await store.list(EXAM)).toHaveLength(1);
    expect(saveStateOf(box.getSnapshot(), questionKey('answer', 1))).toBe('unsaved');
  });

  it('skips a change the server refuses for good, says so, and goes on with the rest', async () => {
    const { box, server } = await setup();
    server.failNext('rejected');
    const bad = await box.enqueue({ channel: 'answer', subject_id: 1, answer: choice('Z') });
    await box.enqueue({ channel: 'ceping', subject_id: 2, option: 'A' });
    await settle();
    expect(box.getSnapshot().rejected.get(bad.client_id)?.key).toBe(questionKey('answer', 1));
    expect(saveStateOf(box.getSnapshot(), questionKey('answer', 1))).toBe('unsaved');
    expect(server.received.map((e) => e.channel)).toEqual(['ceping']);
    expect(await box.drain(50)).toBe(0);
  });

  it('drains before a submit and tells how many changes could not be sent', async () => {
    const { box, server } = await setup();
    server.failNext(...Array<FailureKind>(50).fill('retry'));
    await box.enqueue({ channel: 'answer', subject_id: 1, answer: choice('A') });
    expect(await box.drain(300)).toBe(1);
  });

  it('backs off from one second up to the cap', () => {
    expect(backoffMs(1, () => 0.5)).toBe(1_000);
    expect(backoffMs(3, () => 0.5)).toBe(4_000);
    expect(backoffMs(30, () => 1)).toBe(Math.round(MAX_BACKOFF_MS * 1.2));
  });
});

describe('a change on its way into storage', () => {
  it('counts as pending from the moment it is handed over, not only once stored', async () => {
    const { box } = await setup({ online: false });
    const stored = box.enqueue({ channel: 'answer', subject_id: 7, answer: choice('A') });
    expect(saveStateOf(box.getSnapshot(), questionKey('answer', 7))).toBe('unsaved');
    await stored;
    expect(saveStateOf(box.getSnapshot(), questionKey('answer', 7))).toBe('unsaved');
    expect(box.getSnapshot().pending.get(questionKey('answer', 7))).toBe(1);
  });
});

/** A journal over a Map, as over localStorage. */
const newJournal = () => storageJournal(memoryStorage());

/** A store whose writes wait until released (the page may go away meanwhile); the rest is IndexedDB's. */
function heldWrites(store: OutboxStore) {
  const held: (() => void)[] = [];
  return {
    release: () => held.splice(0).forEach((go) => go()),
    wrap: (): OutboxStore => ({
      list: (examId) => store.list(examId),
      remove: (ids) => store.remove(ids),
      nextSeq: (key, floor) => store.nextSeq(key, floor),
      put: (entry, replaces) =>
        new Promise<void>((resolve) => held.push(resolve)).then(() => store.put(entry, replaces)),
    }),
  };
}

describe('a page gone before its change was stored', () => {
  it('loses nothing: the next visit takes the noted changes back, stores and sends them', async () => {
    const journal = newJournal();
    const factory = new IDBFactory();
    const writes = heldWrites(await openIndexedDbStore(factory));
    const first = await setup({ factory, journal, wrap: writes.wrap, now: () => NOW - 5_000 });
    void first.box.enqueue({ channel: 'answer', subject_id: 4, answer: choice('C') });
    void first.box.enqueue({ channel: 'ceping', subject_id: 9, option: 'B' });
    await settle();
    // The page goes away with both writes on their way: the store never gets them.
    first.box.close();
    expect(await first.store.list(EXAM)).toEqual([]);

    const server = fakeServer();
    server.failNext('retry');
    const second = await setup({ factory, online: false, journal, server });
    const restored = second.box.pendingAnswers();
    expect(restored.get(questionKey('answer', 4))?.answer).toEqual(choice('C'));
    expect(restored.get(questionKey('ceping', 9))?.option).toBe('B');
    expect(saveStateOf(second.box.getSnapshot(), questionKey('answer', 4))).toBe('unsaved');
    expect((await second.store.list(EXAM)).filter((e) => e.channel !== 'risk')).toHaveLength(2);
    expect(journal.read(EXAM)).toEqual([]);

    second.box.setOnline(true);
    await settle();
    const answers = server.received.filter((e) => e.channel !== 'risk');
    expect(answers.map((e) => [e.channel, e.subject_id, e.changed_at])).toEqual([
      ['answer', 4, NOW - 5_000],
      ['ceping', 9, NOW - 5_000],
    ]);
  });

  it('notes only the newest change of a question, and forgets it once that change is stored', async () => {
    const journal = newJournal();
    const factory = new IDBFactory();
    const writes = heldWrites(await openIndexedDbStore(factory));
    const { box } = await setup({ factory, journal, wrap: writes.wrap });
    const firstWrite = box.enqueue({ channel: 'answer', subject_id: 2, answer: choice('A') });
    const secondWrite = box.enqueue({ channel: 'answer', subject_id: 2, answer: choice('D') });
    expect(journal.read(EXAM)).toEqual([{ channel: 'answer', subject_id: 2, answer: choice('D'), changed_at: NOW }]);
    // The older change is stored first: the newer one is still on its way, so the note stays.
    await settle();
    writes.release();
    await firstWrite;
    expect(journal.read(EXAM)).toHaveLength(1);
    await settle();
    writes.release();
    await secondWrite;
    expect(journal.read(EXAM)).toEqual([]);
  });

  it('notes no event and no risk record: only answers are on their way', async () => {
    const journal = newJournal();
    const factory = new IDBFactory();
    const writes = heldWrites(await openIndexedDbStore(factory));
    const { box } = await setup({ factory, journal, wrap: writes.wrap });
    void box.enqueue({ channel: 'answer', subject_id: 2, event: 5 });
    void box.recordRisk(RISK_EVENTS.networkUnstable.id, 'slow');
    await settle();
    expect(journal.read(EXAM)).toEqual([]);
  });
});

describe('a browser two candidates use in turn', () => {
  it("keeps each candidate's unsent changes to themselves, and sends them with their own login", async () => {
    let owner = 1;
    const factory = new IDBFactory();
    const journal = newJournal();
    const first = await setup({ factory, journal, online: false });
    const firstServer = fakeServer();
    firstServer.failNext('retry');
    const a = await Outbox.open(EXAM, {
      store: first.store,
      send: firstServer.send,
      classify: () => 'retry',
      now: () => NOW,
      newId: () => `a-${Math.random()}`,
      setTimer: () => null,
      clearTimer: () => undefined,
      online: false,
      owner: () => owner,
    });
    await a.enqueue({ channel: 'answer', subject_id: 3, answer: choice('A') });
    a.close();

    // The second candidate logs in on this browser: the first one's change is neither shown nor sent.
    owner = 2;
    const server = fakeServer();
    const open = (send: ReturnType<typeof fakeServer>) =>
      Outbox.open(EXAM, {
        store: first.store,
        send: send.send,
        classify: () => 'retry',
        now: () => NOW,
        newId: () => `b-${Math.random()}`,
        online: true,
        owner: () => owner,
      });
    const b = await open(server);
    expect(b.pendingAnswers().size).toBe(0);
    await b.enqueue({ channel: 'answer', subject_id: 3, answer: choice('B') });
    await settle();
    expect(server.received.map((e) => [e.candidate_id, e.answer])).toEqual([[2, choice('B')]]);
    b.close();
    expect((await first.store.list(EXAM)).map((e) => [e.candidate_id, e.answer])).toEqual([[1, choice('A')]]);

    // The first candidate comes back: their change is theirs again, and goes with their login.
    owner = 1;
    const again = fakeServer();
    const back = await open(again);
    expect(back.pendingAnswers().get(questionKey('answer', 3))?.answer).toEqual(choice('A'));
    await settle();
    expect(again.received.map((e) => [e.candidate_id, e.answer])).toEqual([[1, choice('A')]]);
    expect(await first.store.list(EXAM)).toEqual([]);
  });

  it('sends nothing while another candidate is logged in on the page, and goes on once the right one is', async () => {
    let owner = 1;
    const server = fakeServer();
    server.failNext('retry');
    const { box, timers } = await setup({ server });
    const opened = await Outbox.open(EXAM, {
      store: (await setup()).store,
      send: server.send,
      classify: () => 'retry',
      now: () => NOW,
      newId: () => `c-${Math.random()}`,
      setTimer: timers.setTimer,
      clearTimer: timers.clearTimer,
      online: true,
      owner: () => owner,
    });
    box.close();
    await opened.enqueue({ channel: 'answer', subject_id: 8, answer: choice('C') });
    await settle();
    expect(server.received).toEqual([]);
    await opened.recordRisk(RISK_EVENTS.networkUnstable.id, 'slow');
    expect(opened.pendingRisks()).toHaveLength(1);
    // A new login in place, by someone else: the retry sends nothing, nor does the beacon on the way out.
    owner = 2;
    opened.retryNow();
    await settle();
    expect(server.received).toEqual([]);
    expect(opened.pendingRisks()).toEqual([]);
    owner = 1;
    opened.retryNow();
    await settle();
    expect(server.received.map((e) => e.channel)).toEqual(['answer', 'risk']);
  });

  it("takes back only the candidate's own notes of changes on their way", async () => {
    let owner = 1;
    const journal = newJournal();
    const factory = new IDBFactory();
    const writes = heldWrites(await openIndexedDbStore(factory));
    const deps = (store: OutboxStore) => ({
      store,
      send: () => Promise.reject(new Error('offline')),
      classify: () => 'retry' as const,
      now: () => NOW,
      newId: () => `d-${Math.random()}`,
      setTimer: () => null,
      clearTimer: () => undefined,
      online: false,
      journal,
      owner: () => owner,
    });
    const a = await Outbox.open(EXAM, deps(writes.wrap()));
    void a.enqueue({ channel: 'answer', subject_id: 5, answer: choice('A') });
    await settle();
    a.close();
    owner = 2;
    const b = await Outbox.open(EXAM, deps(await openIndexedDbStore(factory)));
    expect(b.pendingAnswers().size).toBe(0);
    expect(journal.read(EXAM)).toHaveLength(1);
    b.close();
    owner = 1;
    const back = await Outbox.open(EXAM, deps(await openIndexedDbStore(factory)));
    expect(back.pendingAnswers().get(questionKey('answer', 5))?.candidate_id).toBe(1);
    expect(journal.read(EXAM)).toEqual([]);
  });
});
