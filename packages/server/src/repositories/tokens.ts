import type { Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { AuthTokenTable } from '../db/schema.js';

/** A token row (hash only). */
export type AuthToken = Selectable<AuthTokenTable>;

/** Token hashes; the token itself is never stored. */
export class TokenRepository {
  constructor(private readonly db: Db) {}

  /** Stores a new token hash. */
  async insert(row: AuthToken): Promise<void> {
    await this.db.insertInto('auth_tokens').values(row).execute();
  }

  /** The live token of this kind with this hash, if any. */
  findLive(tokenHash: string, kind: string, now: number): Promise<AuthToken | undefined> {
    return this.db
      .selectFrom('auth_tokens')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .where('kind', '=', kind)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
  }

  /** Notes that a token was used at `now`. */
  async seen(tokenHash: string, now: number): Promise<void> {
    await this.db.updateTable('auth_tokens').set({ last_seen_at: now }).where('token_hash', '=', tokenHash).execute();
  }

  /** The live tokens of a subject, newest first. */
  listLive(kind: string, subjectId: number, now: number): Promise<AuthToken[]> {
    return this.db
      .selectFrom('auth_tokens')
      .selectAll()
      .where('kind', '=', kind)
      .where('subject_id', '=', subjectId)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .orderBy('created_at', 'desc')
      .execute();
  }

  /** Revokes a subject's live token with this session id; answers whether there was one. */
  async revokeSession(kind: string, subjectId: number, sessionId: string, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('auth_tokens')
      .set({ revoked_at: now })
      .where('session_id', '=', sessionId)
      .where('kind', '=', kind)
      .where('subject_id', '=', subjectId)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Revokes one token. */
  async revoke(tokenHash: string, now: number): Promise<void> {
    await this.db
      .updateTable('auth_tokens')
      .set({ revoked_at: now })
      .where('token_hash', '=', tokenHash)
      .where('revoked_at', 'is', null)
      .execute();
  }

  /** Revokes every token of a subject. */
  async revokeAll(kind: string, subjectId: number, now: number): Promise<void> {
    await this.db
      .updateTable('auth_tokens')
      .set({ revoked_at: now })
      .where('kind', '=', kind)
      .where('subject_id', '=', subjectId)
      .where('revoked_at', 'is', null)
      .execute();
  }
}
