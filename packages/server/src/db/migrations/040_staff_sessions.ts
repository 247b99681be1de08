import type { Kysely } from 'kysely';

/**
 * A staff token is a session its owner can see and end: an id that names it without being it (the token and its
 * hash never leave the server), how it was signed in to, and from where. Tokens issued before carry none of these
 * and are listed without them.
 */
export function staffSessions() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('auth_tokens').addColumn('session_id', 'text').execute();
      await db.schema.alterTable('auth_tokens').addColumn('method', 'text').execute();
      await db.schema.alterTable('auth_tokens').addColumn('ip', 'text').execute();
      await db.schema.alterTable('auth_tokens').addColumn('user_agent', 'text').execute();
      await db.schema.alterTable('auth_tokens').addColumn('last_seen_at', 'bigint').execute();
      await db.schema.createIndex('auth_tokens_session').on('auth_tokens').column('session_id').unique().execute();
    },
  };
}
