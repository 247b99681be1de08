import type { Kysely } from 'kysely';
import type { DialectKit } from '../dialects/types.js';

/**
 * Single sign-on for staff. `sso_group_mappings`: a group of the identity provider (by the name its groups claim
 * carries) gives its members a team and a role here; a sign-in whose groups match none is refused. `staff_identities`:
 * which account a provider's subject signed in as (linked on first sign-in), so a changed phone or e-mail at the
 * provider still finds it (an account the provider knows by e-mail has that e-mail as its sign-in name, where others
 * have their phone). `sso_requests`: the
 * state, nonce and PKCE verifier (OpenID Connect) or request id (SAML) of each sign-in started, kept server-side until
 * its answer comes back once. `sso_assertions`: the SAML assertion ids already accepted, until they expire, so none
 * is accepted twice.
 */
export function sso(kit: DialectKit) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('sso_group_mappings')
        .addColumn('id', kit.idType, kit.idColumn)
        .addColumn('group_name', 'text', (c) => c.notNull().unique())
        // Null only for the admin role.
        .addColumn('team_id', 'integer', (c) => c.references('teams.id').onDelete('cascade'))
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('staff_identities')
        .addColumn('method', 'text', (c) => c.notNull())
        .addColumn('issuer', 'text', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('staff_id', 'integer', (c) => c.notNull().references('staff.id').onDelete('cascade'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('last_sign_in_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('staff_identities_pk', ['method', 'issuer', 'subject'])
        .execute();
      await db.schema.createIndex('staff_identities_staff').on('staff_identities').column('staff_id').execute();
      await db.schema
        .createTable('sso_requests')
        // SHA-256 of the state (OpenID Connect) or the request id (SAML): never the value itself.
        .addColumn('key_hash', 'text', (c) => c.primaryKey())
        .addColumn('method', 'text', (c) => c.notNull())
        .addColumn('nonce', 'text')
        .addColumn('code_verifier', 'text')
        .addColumn('redirect', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('sso_requests_expiry').on('sso_requests').column('expires_at').execute();
      await db.schema
        .createTable('sso_assertions')
        .addColumn('assertion_id', 'text', (c) => c.primaryKey())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('sso_assertions_expiry').on('sso_assertions').column('expires_at').execute();
    },
  };
}
