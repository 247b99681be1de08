import { hash, randomBytes } from 'node:crypto';
import type { Db } from '../db/database.js';
import { TokenRepository } from '../repositories/tokens.js';

/** Token kinds: candidate, staff and phone-page tokens never stand in for each other (a phone token's subject is an attempt). */
export type TokenKind = 'candidate' | 'staff' | 'phone';

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

  /** A new random token for a subject, valid for `ttlMs`. */
  async issue(kind: TokenKind, subjectId: number, ttlMs: number): Promise<{ token: string; expiresAt: number }> {
    const token = randomBytes(32).toString('base64url');
    const now = this.clock();
    const expiresAt = now + ttlMs;
    await this.repo.insert({
      token_hash: hashToken(token),
      kind,
      subject_id: subjectId,
      created_at: now,
      expires_at: expiresAt,
      revoked_at: null,
    });
    return { token, expiresAt };
  }

  /** The subject of a live token of this kind, or null. */
  async resolve(kind: TokenKind, token: string | undefined): Promise<number | null> {
    if (!token || token.length > 200) return null;
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
