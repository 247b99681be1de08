import type { Insertable, Selectable, Updateable } from 'kysely';
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
}
