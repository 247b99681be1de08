import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Db } from '../db/database.js';
import type { StaffTable } from '../db/schema.js';

/** A staff row. */
export type StaffRow = Selectable<StaffTable>;
/** A staff row with its team's name. */
export type StaffWithTeam = StaffRow & { team_name: string | null };

/** Staff accounts. */
export class StaffRepository {
  constructor(private readonly db: Db) {}

  /** The account with this phone, if any. */
  findByPhone(phone: string): Promise<StaffRow | undefined> {
    return this.db.selectFrom('staff').selectAll().where('phone', '=', phone).executeTakeFirst();
  }

  /** The account with this id, if any. */
  findById(id: number): Promise<StaffRow | undefined> {
    return this.db.selectFrom('staff').selectAll().where('id', '=', id).executeTakeFirst();
  }

  private withTeam() {
    return this.db
      .selectFrom('staff')
      .leftJoin('teams', 'teams.id', 'staff.team_id')
      .selectAll('staff')
      .select('teams.name as team_name');
  }

  /** The account with this id and its team's name, if any. */
  findWithTeam(id: number): Promise<StaffWithTeam | undefined> {
    return this.withTeam().where('staff.id', '=', id).executeTakeFirst();
  }

  /** Every account with its team's name, oldest first. */
  list(): Promise<StaffWithTeam[]> {
    return this.withTeam().orderBy('staff.id').execute();
  }

  /** Creates an account. */
  create(row: Insertable<StaffTable>): Promise<StaffRow> {
    return this.db.insertInto('staff').values(row).returningAll().executeTakeFirstOrThrow();
  }

  /** Changes an account's name, role, team or disabled state. */
  async update(id: number, changes: Updateable<Pick<StaffTable, 'name' | 'role' | 'team_id' | 'disabled'>>) {
    await this.db.updateTable('staff').set(changes).where('id', '=', id).execute();
  }

  /** How many enabled admin accounts there are other than `exceptId`. */
  async otherEnabledAdmins(exceptId: number): Promise<number> {
    const row = await this.db
      .selectFrom('staff')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('role', '=', 'admin')
      .where('disabled', '=', 0)
      .where('id', '!=', exceptId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Sets a new password hash; `enable` also lifts a disabled state (the bootstrap admin's reset). */
  async setPassword(id: number, passwordHash: string, enable = true): Promise<void> {
    await this.db
      .updateTable('staff')
      .set(enable ? { password_hash: passwordHash, disabled: 0 } : { password_hash: passwordHash })
      .where('id', '=', id)
      .execute();
  }

  /**
   * Reserves one login try for `phone` before its password is checked: counts it and answers true while
   * fewer than `max` were counted in the current window (a window that has ended starts again at one),
   * else counts nothing and answers false. One statement, so concurrent logins cannot all pass the check.
   */
  async reserveLoginTry(phone: string, now: number, max: number, windowMs: number): Promise<boolean> {
    const expired = sql<boolean>`staff_login_tries.window_ends <= ${now}`;
    const granted = await this.db
      .insertInto('staff_login_tries')
      .values({ phone, tries: 1, window_ends: now + windowMs })
      .onConflict((oc) =>
        oc
          .column('phone')
          .doUpdateSet({
            tries: sql<number>`case when ${expired} then 1 else staff_login_tries.tries + 1 end`,
            window_ends: sql<number>`case when ${expired} then ${now + windowMs} else staff_login_tries.window_ends end`,
          })
          .where((eb) => eb.or([expired, eb('staff_login_tries.tries', '<', max)])),
      )
      .returning('tries')
      .executeTakeFirst();
    return granted !== undefined;
  }

  /** Gives back a try reserved by a login that was neither right nor wrong (the password was right, the second factor not yet asked). */
  async releaseLoginTry(phone: string): Promise<void> {
    await this.db
      .updateTable('staff_login_tries')
      .set((eb) => ({ tries: eb('tries', '-', 1) }))
      .where('phone', '=', phone)
      .where('tries', '>', 0)
      .execute();
  }

  /** Forgets the tries of a phone after a successful login. */
  async clearLoginTries(phone: string): Promise<void> {
    await this.db.deleteFrom('staff_login_tries').where('phone', '=', phone).execute();
  }

  /**
   * Removes up to `limit` rows whose window ended before `before`; answers how many. The phones are picked first
   * and the window checked again in the delete, so a row a try has just started anew stays.
   */
  async deleteEndedLoginTries(before: number, limit: number): Promise<number> {
    const rows = await this.db
      .selectFrom('staff_login_tries')
      .select('phone')
      .where('window_ends', '<', before)
      .orderBy('window_ends')
      .limit(limit)
      .execute();
    if (rows.length === 0) return 0;
    const res = await this.db
      .deleteFrom('staff_login_tries')
      .where(
        'phone',
        'in',
        rows.map((r) => r.phone),
      )
      .where('window_ends', '<', before)
      .executeTakeFirst();
    return Number(res.numDeletedRows);
  }

  /** Keeps a TOTP secret being enrolled (replacing one enrolled before and never confirmed). */
  async setPendingTotp(id: number, secret: string): Promise<void> {
    await this.db.updateTable('staff').set({ totp_pending_secret: secret }).where('id', '=', id).execute();
  }

  /**
   * Makes the enrolled secret the account's second factor (stored as `stored`), with `step` as the last code used;
   * false when the pending secret is no longer `pending` (enrolled again meanwhile) or TOTP is already on.
   */
  async confirmTotp(id: number, pending: string, stored: string, step: number): Promise<boolean> {
    const res = await this.db
      .updateTable('staff')
      .set({ totp_secret: stored, totp_pending_secret: null, totp_last_step: step })
      .where('id', '=', id)
      .where('totp_pending_secret', '=', pending)
      .where('totp_secret', 'is', null)
      .executeTakeFirst();
    return res.numUpdatedRows === 1n;
  }

  /** Records that the code of time step `step` was used; false when it (or a later one) was used already. */
  async useTotpStep(id: number, step: number): Promise<boolean> {
    const res = await this.db
      .updateTable('staff')
      .set({ totp_last_step: step })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
      .executeTakeFirst();
    return res.numUpdatedRows === 1n;
  }

  /** Accounts with a TOTP secret (confirmed or pending) stored without the prefix `sealedPrefix`. */
  plainTotpSecrets(sealedPrefix: string): Promise<Pick<StaffRow, 'id' | 'totp_secret' | 'totp_pending_secret'>[]> {
    const plain = (column: 'totp_secret' | 'totp_pending_secret') =>
      sql<boolean>`${sql.ref(column)} is not null and ${sql.ref(column)} not like ${`${sealedPrefix}%`}`;
    return this.db
      .selectFrom('staff')
      .select(['id', 'totp_secret', 'totp_pending_secret'])
      .where((eb) => eb.or([plain('totp_secret'), plain('totp_pending_secret')]))
      .orderBy('id')
      .execute();
  }

  /** Replaces an account's stored TOTP secrets with `to`, only while they are still `from`; false otherwise. */
  async replaceTotpSecrets(
    id: number,
    from: { totp_secret: string | null; totp_pending_secret: string | null },
    to: { totp_secret: string | null; totp_pending_secret: string | null },
  ): Promise<boolean> {
    const same = (column: 'totp_secret' | 'totp_pending_secret', value: string | null) =>
      value === null ? sql<boolean>`${sql.ref(column)} is null` : sql<boolean>`${sql.ref(column)} = ${value}`;
    const res = await this.db
      .updateTable('staff')
      .set(to)
      .where('id', '=', id)
      .where(same('totp_secret', from.totp_secret))
      .where(same('totp_pending_secret', from.totp_pending_secret))
      .executeTakeFirst();
    return res.numUpdatedRows === 1n;
  }

  /** Turns the second factor off and drops its recovery codes. */
  async disableTotp(id: number): Promise<void> {
    await this.db
      .updateTable('staff')
      .set({ totp_secret: null, totp_pending_secret: null, totp_last_step: null })
      .where('id', '=', id)
      .execute();
    await this.db.deleteFrom('staff_recovery_codes').where('staff_id', '=', id).execute();
  }

  /** Replaces an account's recovery codes with these hashes. */
  async replaceRecoveryCodes(id: number, hashes: string[], now: number): Promise<void> {
    await this.db.deleteFrom('staff_recovery_codes').where('staff_id', '=', id).execute();
    await this.db
      .insertInto('staff_recovery_codes')
      .values(hashes.map((code_hash) => ({ staff_id: id, code_hash, created_at: now, used_at: null })))
      .execute();
  }

  /** Uses the recovery code with this hash; false when there is none or it was used already. */
  async useRecoveryCode(id: number, hash: string, now: number): Promise<boolean> {
    const res = await this.db
      .updateTable('staff_recovery_codes')
      .set({ used_at: now })
      .where('staff_id', '=', id)
      .where('code_hash', '=', hash)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return res.numUpdatedRows === 1n;
  }

  /** How many of an account's recovery codes are still unused. */
  async unusedRecoveryCodes(id: number): Promise<number> {
    const row = await this.db
      .selectFrom('staff_recovery_codes')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('staff_id', '=', id)
      .where('used_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
