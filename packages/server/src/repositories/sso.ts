import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { SsoGroupMappingTable, SsoRequestTable } from '../db/schema.js';
import { isUniqueViolation } from '../db/uniqueViolation.js';

/** A group mapping row. */
export type SsoGroupRow = Selectable<SsoGroupMappingTable>;
/** A group mapping with its team's name. */
export type SsoGroupWithTeam = SsoGroupRow & { team_name: string | null };
/** A sign-in started. */
export type SsoRequestRow = Selectable<SsoRequestTable>;

/** Single sign-on: group mappings, linked identities, sign-ins in flight and SAML assertions seen. */
export class SsoRepository {
  constructor(private readonly db: Db) {}

  private mappings() {
    return this.db
      .selectFrom('sso_group_mappings')
      .leftJoin('teams', 'teams.id', 'sso_group_mappings.team_id')
      .selectAll('sso_group_mappings')
      .select('teams.name as team_name');
  }

  /** Every group mapping, by group name. */
  listGroups(): Promise<SsoGroupWithTeam[]> {
    return this.mappings().orderBy('sso_group_mappings.group_name').execute();
  }

  /** One mapping by id. */
  findGroup(id: number): Promise<SsoGroupWithTeam | undefined> {
    return this.mappings().where('sso_group_mappings.id', '=', id).executeTakeFirst();
  }

  /** The mappings of these group names. */
  async groupsNamed(names: readonly string[]): Promise<SsoGroupRow[]> {
    if (names.length === 0) return [];
    return this.db
      .selectFrom('sso_group_mappings')
      .selectAll()
      .where('group_name', 'in', [...names])
      .orderBy('id')
      .execute();
  }

  /** The mapping of a group name, if any. */
  findGroupByName(name: string): Promise<SsoGroupRow | undefined> {
    return this.db.selectFrom('sso_group_mappings').selectAll().where('group_name', '=', name).executeTakeFirst();
  }

  /** Adds a mapping. */
  createGroup(row: Insertable<SsoGroupMappingTable>): Promise<SsoGroupRow> {
    return this.db.insertInto('sso_group_mappings').values(row).returningAll().executeTakeFirstOrThrow();
  }

  /** Changes a mapping. */
  async updateGroup(id: number, changes: { group_name?: string; team_id?: number | null; role?: string }) {
    await this.db.updateTable('sso_group_mappings').set(changes).where('id', '=', id).execute();
  }

  /** Removes a mapping. */
  async deleteGroup(id: number): Promise<void> {
    await this.db.deleteFrom('sso_group_mappings').where('id', '=', id).execute();
  }

  /** The account a provider's subject signed in as before, if any. */
  async identityOwner(method: string, issuer: string, subject: string): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('staff_identities')
      .select('staff_id')
      .where('method', '=', method)
      .where('issuer', '=', issuer)
      .where('subject', '=', subject)
      .executeTakeFirst();
    return row?.staff_id;
  }

  /** Links a provider's subject to an account, or notes its sign-in when linked already. */
  async linkIdentity(method: string, issuer: string, subject: string, staffId: number, now: number): Promise<void> {
    await this.db
      .insertInto('staff_identities')
      .values({ method, issuer, subject, staff_id: staffId, created_at: now, last_sign_in_at: now })
      .onConflict((oc) =>
        oc.columns(['method', 'issuer', 'subject']).doUpdateSet({ staff_id: staffId, last_sign_in_at: now }),
      )
      .execute();
  }

  /** Keeps a sign-in started; the expired ones go at the same time. */
  async saveRequest(row: SsoRequestRow, now: number): Promise<void> {
    await this.db.deleteFrom('sso_requests').where('expires_at', '<=', now).execute();
    await this.db.insertInto('sso_requests').values(row).execute();
  }

  /** Takes a live sign-in started (it is answered once): removed, and answered unless it expired. */
  async takeRequest(keyHash: string, method: string, now: number): Promise<SsoRequestRow | undefined> {
    const row = await this.db
      .deleteFrom('sso_requests')
      .where('key_hash', '=', keyHash)
      .where('method', '=', method)
      .returningAll()
      .executeTakeFirst();
    return row && row.expires_at > now ? row : undefined;
  }

  /** A live sign-in started under this key, not taking it. */
  findRequest(keyHash: string, method: string, now: number): Promise<SsoRequestRow | undefined> {
    return this.db
      .selectFrom('sso_requests')
      .selectAll()
      .where('key_hash', '=', keyHash)
      .where('method', '=', method)
      .where('expires_at', '>', now)
      .executeTakeFirst();
  }

  /** Whether an assertion id was accepted already (and can still be replayed). */
  async assertionUsed(assertionId: string, now: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('sso_assertions')
      .select('assertion_id')
      .where('assertion_id', '=', assertionId)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * Records an assertion id as used until `expiresAt`; false when it was used already (a replay). The expired ones
   * go first, so the table holds only what can still be replayed.
   */
  async useAssertion(assertionId: string, expiresAt: number, now: number): Promise<boolean> {
    await this.db.deleteFrom('sso_assertions').where('expires_at', '<=', now).execute();
    try {
      await this.db.insertInto('sso_assertions').values({ assertion_id: assertionId, expires_at: expiresAt }).execute();
      return true;
    } catch (err) {
      if (isUniqueViolation(err)) return false;
      throw err;
    }
  }
}
