import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { InProcessNotifier, RedisNotifier, type ProctorNotifier } from '../proctoring/notifier.js';
import type { Candidate } from '../repositories/candidates.js';
import { requirePart, TEST_REDIS_URL } from '../test/parts.js';
import { CandidateSessions, type CandidateByToken } from './candidateSessions.js';
import { hashToken } from './tokens.js';

const redisHere = await requirePart('redis');
const NOW = 1_800_000_000_000;
const KEEP_MS = 60_000;

function candidate(id: number, name = `candidate ${id}`): Candidate {
  return {
    id,
    area_code: '86',
    phone: `1380000${String(id).padStart(4, '0')}`,
    name,
    school: '',
    major: '',
    degree: '',
    graduation_year: null,
    created_at: NOW,
    last_login_at: NOW,
  } as unknown as Candidate;
}

/**
 * The database as the cache sees it: live tokens by hash, each with its candidate and end, and a count of the
 * lookups that reached it.
 */
function database() {
  const tokens = new Map<string, { candidateId: number; expiresAt: number }>();
  const rows = new Map<number, Candidate>();
  const counter = { lookups: 0 };
  const lookup: CandidateByToken = async (hash, now) => {
    counter.lookups++;
    const t = tokens.get(hash);
    if (!t || t.expiresAt <= now) return undefined;
    return { ...rows.get(t.candidateId)!, token_expires_at: t.expiresAt };
  };
  return {
    lookup,
    counter,
    issue(token: string, c: Candidate, expiresAt = NOW + 30 * 86_400_000) {
      rows.set(c.id, c);
      tokens.set(hashToken(token), { candidateId: c.id, expiresAt });
    },
    revoke: (token: string) => tokens.delete(hashToken(token)),
    rename: (id: number, name: string) => rows.set(id, { ...rows.get(id)!, name }),
  };
}

describe('the candidates behind tokens, kept per process', () => {
  const open: ProctorNotifier[] = [];
  const caches: CandidateSessions[] = [];
  afterEach(async () => {
    for (const c of caches.splice(0)) c.close();
    await Promise.all(open.splice(0).map((n) => n.close()));
  });

  function cache(
    db: ReturnType<typeof database>,
    clock: () => number,
    notifier: ProctorNotifier = new InProcessNotifier(),
    entries = 100,
  ) {
    if (!open.includes(notifier)) open.push(notifier);
    const c = new CandidateSessions(db.lookup, notifier, clock, { keepMs: KEEP_MS, entries });
    caches.push(c);
    return c;
  }
  /** Lets the notifier's listeners run (they run after the announcing call). */
  const settle = () => new Promise((r) => setTimeout(r, 0));

  it('asks the database once per keep window, and never past the token’s end', async () => {
    const db = database();
    let now = NOW;
    const sessions = cache(db, () => now);
    db.issue('long', candidate(1));
    db.issue('short', candidate(2), NOW + 10_000);

    expect((await sessions.resolve('long'))?.id).toBe(1);
    expect((await sessions.resolve('long'))?.id).toBe(1);
    expect(db.counter.lookups).toBe(1);
    // What the database answers besides the row (the token's end) is not part of the candidate.
    expect(await sessions.resolve('long')).not.toHaveProperty('token_expires_at');

    now = NOW + KEEP_MS; // the window is over: asked again
    expect((await sessions.resolve('long'))?.id).toBe(1);
    expect(db.counter.lookups).toBe(2);

    now = NOW;
    expect((await sessions.resolve('short'))?.id).toBe(2);
    now = NOW + 10_000; // the token ended within the window: not answered from memory
    expect(await sessions.resolve('short')).toBeNull();
    expect(db.counter.lookups).toBe(4);
  });

  it('answers null for no token, an oversized one and an unknown one, and keeps none of them', async () => {
    const db = database();
    const sessions = cache(db, () => NOW);
    expect(await sessions.resolve(undefined)).toBeNull();
    expect(await sessions.resolve('x'.repeat(201))).toBeNull();
    expect(db.counter.lookups).toBe(0);
    expect(await sessions.resolve('unknown')).toBeNull();
    expect(await sessions.resolve('unknown')).toBeNull();
    expect(db.counter.lookups).toBe(2);
    expect(sessions.size).toBe(0);
  });

  it('forgets a revoked token and a changed candidate at once, in every process on the notifier', async () => {
    const db = database();
    const shared = new InProcessNotifier();
    const here = cache(db, () => NOW, shared);
    const there = cache(db, () => NOW, shared);
    db.issue('a1', candidate(1));
    db.issue('a2', candidate(1));
    db.issue('b', candidate(2));
    for (const s of [here, there]) for (const t of ['a1', 'a2', 'b']) await s.resolve(t);
    expect(db.counter.lookups).toBe(6);

    db.revoke('a1');
    here.revoked('a1');
    expect(await here.resolve('a1')).toBeNull();
    await settle();
    expect(await there.resolve('a1')).toBeNull();

    db.rename(1, 'renamed');
    here.changed(1);
    expect((await here.resolve('a2'))?.name).toBe('renamed');
    await settle();
    expect((await there.resolve('a2'))?.name).toBe('renamed');
    // Another candidate's tokens stay kept.
    const before = db.counter.lookups;
    expect((await there.resolve('b'))?.id).toBe(2);
    expect(db.counter.lookups).toBe(before);
  });

  it('does not keep what a lookup read while the candidate was being forgotten', async () => {
    const db = database();
    db.issue('t', candidate(1, 'old'));
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const slow: CandidateByToken = async (hash, now) => {
      const row = await db.lookup(hash, now); // read before the change...
      await gate; // ...answered after it
      return row;
    };
    const notifier = new InProcessNotifier();
    open.push(notifier);
    const sessions = new CandidateSessions(slow, notifier, () => NOW, { keepMs: KEEP_MS, entries: 100 });
    caches.push(sessions);
    const pending = sessions.resolve('t');
    await settle();
    db.rename(1, 'new');
    sessions.changed(1);
    release();
    expect((await pending)?.name).toBe('old');
    expect(sessions.size).toBe(0);
    expect((await sessions.resolve('t'))?.name).toBe('new');
  });

  it('keeps at most its number of entries, the oldest going first', async () => {
    const db = database();
    const sessions = cache(db, () => NOW, new InProcessNotifier(), 2);
    for (const id of [1, 2, 3]) db.issue(`t${id}`, candidate(id));
    for (const t of ['t1', 't2', 't3']) await sessions.resolve(t);
    expect(sessions.size).toBe(2);
    const before = db.counter.lookups;
    await sessions.resolve('t3');
    await sessions.resolve('t2');
    expect(db.counter.lookups).toBe(before);
    await sessions.resolve('t1');
    expect(db.counter.lookups).toBe(before + 1);
  });

  it.runIf(redisHere)('through Redis: a revocation in one process reaches the other', async () => {
    const db = database();
    const channel = `examhall:test:${randomUUID()}`;
    const a = new RedisNotifier(TEST_REDIS_URL, undefined, channel);
    const b = new RedisNotifier(TEST_REDIS_URL, undefined, channel);
    await Promise.all([a.ready, b.ready]);
    const here = cache(db, () => NOW, a);
    const there = cache(db, () => NOW, b);
    db.issue('t', candidate(1));
    db.issue('u', candidate(2));
    await there.resolve('t');
    await there.resolve('u');
    db.revoke('t');
    here.revoked('t');
    db.rename(2, 'renamed');
    here.changed(2);
    await expect.poll(() => there.resolve('t')).toBeNull();
    await expect.poll(async () => (await there.resolve('u'))?.name).toBe('renamed');
  });
});
