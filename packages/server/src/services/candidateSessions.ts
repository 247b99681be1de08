import type { Candidate } from '../repositories/candidates.js';
import type { ProctorNotifier } from '../proctoring/notifier.js';
import { hashToken, lookupWorthy } from './tokens.js';

/** How long a process answers a candidate's token from memory before asking the database again. */
export const CANDIDATE_SESSION_KEEP_MS = 60_000;
/** The most tokens a process keeps: an exam's candidates with room; the oldest go first beyond it. */
export const CANDIDATE_SESSIONS_KEPT = 100_000;

/** The lookup the cache stands in front of: the candidate behind a live token, with the token's end. */
export type CandidateByToken = (
  tokenHash: string,
  now: number,
) => Promise<(Candidate & { token_expires_at: number }) | undefined>;

interface Kept {
  candidate: Candidate;
  /** The first moment the entry is no longer answered: the keep window's end or the token's, whichever is first. */
  until: number;
}

/**
 * The candidate behind a token, kept in memory per process: every candidate call names its token, and an exam's
 * saves would otherwise look it up in the database each time.
 *
 * What is kept is never answered once it may be wrong: a revoked token, or a candidate whose row or tokens changed,
 * is forgotten at once in this process and, through the notifier, in every other; an entry is kept at most
 * CANDIDATE_SESSION_KEEP_MS and never past its token's expiry, so that an announcement lost on the way costs at
 * most that long. A lookup under way while something is forgotten is not kept: it may have read the row before the
 * change.
 */
export class CandidateSessions {
  private readonly kept = new Map<string, Kept>();
  /** The token hashes kept of each candidate, to forget them together. */
  private readonly byCandidate = new Map<number, Set<string>>();
  /** Counts forgettings: a lookup that began before the latest one is answered but not kept. */
  private generation = 0;
  private readonly stopListening: () => void;

  constructor(
    private readonly lookup: CandidateByToken,
    private readonly notifier: ProctorNotifier,
    private readonly clock: () => number,
    private readonly limits = { keepMs: CANDIDATE_SESSION_KEEP_MS, entries: CANDIDATE_SESSIONS_KEPT },
  ) {
    this.stopListening = notifier.listen((change) => {
      if (change.type !== 'credentials') return;
      if (change.tokenHash !== undefined) this.forgetToken(change.tokenHash);
      for (const id of change.candidateIds ?? []) this.forgetCandidate(id);
    });
  }

  /** The candidate behind a live token, or null. */
  async resolve(token: string | undefined): Promise<Candidate | null> {
    if (!lookupWorthy(token)) return null;
    const hash = hashToken(token);
    const now = this.clock();
    const hit = this.kept.get(hash);
    if (hit && hit.until > now) return hit.candidate;
    if (hit) this.drop(hash);
    const generation = this.generation;
    const row = await this.lookup(hash, now);
    if (!row) return null;
    const { token_expires_at: tokenExpiresAt, ...candidate } = row;
    if (generation === this.generation) this.keep(hash, candidate, Math.min(now + this.limits.keepMs, tokenExpiresAt));
    return candidate;
  }

  /** A token was revoked: no process answers it from memory any more. */
  revoked(token: string): void {
    const tokenHash = hashToken(token);
    this.forgetToken(tokenHash);
    this.notifier.announce({ type: 'credentials', tokenHash });
  }

  /**
   * A candidate's row or tokens changed (a profile saved, a phone changed, a login): no process answers the old
   * row from memory any more. Called once the change is committed.
   */
  changed(candidateIds: number | readonly number[]): void {
    const ids = typeof candidateIds === 'number' ? [candidateIds] : [...candidateIds];
    if (ids.length === 0) return;
    for (const id of ids) this.forgetCandidate(id);
    this.notifier.announce({ type: 'credentials', candidateIds: ids });
  }

  /** How many tokens this process keeps. */
  get size(): number {
    return this.kept.size;
  }

  /** Stops hearing other processes' changes. */
  close(): void {
    this.stopListening();
  }

  private keep(hash: string, candidate: Candidate, until: number): void {
    this.kept.delete(hash);
    this.kept.set(hash, { candidate, until });
    let hashes = this.byCandidate.get(candidate.id);
    if (!hashes) this.byCandidate.set(candidate.id, (hashes = new Set()));
    hashes.add(hash);
    // A Map iterates in insertion order: the first key is the oldest entry.
    while (this.kept.size > this.limits.entries) this.drop(this.kept.keys().next().value!);
  }

  private forgetToken(hash: string): void {
    this.generation++;
    this.drop(hash);
  }

  /** Removes one entry (expired, pushed out, or forgotten). */
  private drop(hash: string): void {
    const was = this.kept.get(hash);
    if (!was) return;
    this.kept.delete(hash);
    const hashes = this.byCandidate.get(was.candidate.id);
    hashes?.delete(hash);
    if (hashes?.size === 0) this.byCandidate.delete(was.candidate.id);
  }

  private forgetCandidate(candidateId: number): void {
    this.generation++;
    const hashes = this.byCandidate.get(candidateId);
    if (!hashes) return;
    this.byCandidate.delete(candidateId);
    for (const hash of hashes) this.kept.delete(hash);
  }
}
