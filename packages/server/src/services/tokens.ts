import { hash, randomBytes } from 'node:crypto';
import type { SignInMethod } from '@examhall/contract';
import type { Db } from '../db/database.js';
import { TokenRepository } from '../repositories/tokens.js';

/** Token kinds: candidate, staff and phone-page tokens never stand in for each other (a phone token's subject is an attempt). */
export type TokenKind = 'candidate' | 'staff' | 'phone';

/** Where a session was signed in from, kept with it so that its owner can tell it apart. */
export interface SessionOrigin {
  method: SignInMethod;
  ip: string;
  userAgent: string | undefined;
}

/** A live session as its owner sees it (never the token or its hash). */
export interface SessionRecord {
  sessionId: string | null;
  method: string | null;
  ip: string | null;
  userAgent: string | null;
  createdAt: number;
  lastSeenAt: number | null;
  expiresAt: number;
}

/** How stale a session's last use may be before a request writes it again: one write per session per step. */
export const SESSION_SEEN_STEP_MS = 5 * 60_000;

/** The longest browser description kept. */
const USER_AGENT_CHARS = 300;

/** The longest token looked up: anything longer is no token of ours, and is not hashed or sought. */
const TOKEN_MAX_CHARS = 200;

/** Whether `token` may be one of ours, worth a lookup. */
export function lookupWorthy(token: string | undefined): token is string {
  return token !== undefined && token !== '' && token.length <= TOKEN_MAX_CHARS;
}

/** SHA-256 of a token, hex: the only form in which tokens are stored. */
export function hashToken(token: string): string {
  return hash('sha256', token, 'hex');
}

/** Issues, resolves and revokes random bearer tokens. */
export class TokenService {
  private readonly repo: TokenRepository;

  constructor(
    db: Db,
    private readonly clock: () => number,
  ) {
    this.repo = new TokenRepository(db);
  }

  /**
   * A new random token for a subject, valid for `ttlMs`; with `origin`, a session its owner can list and end (an id
   * of its own, how and where it was signed in to).
   */
  async issue(
    kind: TokenKind,
    subjectId: number,
    ttlMs: number,
    origin?: SessionOrigin,
  ): Promise<{ token: string; expiresAt: number; sessionId: string | null }> {
    const token = randomBytes(32).toString('base64url');
    const now = this.clock();
    const expiresAt = now + ttlMs;
    const sessionId = origin ? randomBytes(12).toString('base64url') : null;
    await this.repo.insert({
      token_hash: hashToken(token),
      kind,
      subject_id: subjectId,
      created_at: now,
      expires_at: expiresAt,
      revoked_at: null,
      session_id: sessionId,
      method: origin?.method ?? null,
      ip: origin?.ip ?? null,
      user_agent: origin?.userAgent?.slice(0, USER_AGENT_CHARS) ?? null,
      last_seen_at: origin ? now : null,
    });
    return { token, expiresAt, sessionId };
  }

  /**
   * The subject and session of a live token of this kind, or null; notes the session's use when the last note is
   * older than SESSION_SEEN_STEP_MS.
   */
  async resolveSession(
    kind: TokenKind,
    token: string | undefined,
  ): Promise<{ subjectId: number; sessionId: string | null } | null> {
    if (!lookupWorthy(token)) return null;
    const now = this.clock();
    const row = await this.repo.findLive(hashToken(token), kind, now);
    if (!row) return null;
    if (row.session_id !== null && (row.last_seen_at ?? 0) < now - SESSION_SEEN_STEP_MS) {
      await this.repo.seen(row.token_hash, now);
    }
    return { subjectId: row.subject_id, sessionId: row.session_id };
  }

  /** The live sessions of a subject, newest first. */
  async sessions(kind: TokenKind, subjectId: number): Promise<SessionRecord[]> {
    const rows = await this.repo.listLive(kind, subjectId, this.clock());
    return rows.map((r) => ({
      sessionId: r.session_id,
      method: r.method,
      ip: r.ip,
      userAgent: r.user_agent,
      createdAt: r.created_at,
      lastSeenAt: r.last_seen_at,
      expiresAt: r.expires_at,
    }));
  }

  /** Ends one live session of a subject; false when it has none by that id. */
  async endSession(kind: TokenKind, subjectId: number, sessionId: string): Promise<boolean> {
    return this.repo.revokeSession(kind, subjectId, sessionId, this.clock());
  }

  /** The subject of a live token of this kind, or null. */
  async resolve(kind: TokenKind, token: string | undefined): Promise<number | null> {
    if (!lookupWorthy(token)) return null;
    const row = await this.repo.findLive(hashToken(token), kind, this.clock());
    return row ? row.subject_id : null;
  }

  /** Revokes a token. */
  async revoke(token: string): Promise<void> {
    await this.repo.revoke(hashToken(token), this.clock());
  }

  /** Revokes every token of a subject. */
  async revokeAll(kind: TokenKind, subjectId: number): Promise<void> {
    await this.repo.revokeAll(kind, subjectId, this.clock());
  }
}
