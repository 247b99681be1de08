import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { StaffTable } from '../db/schema.js';

/** A staff row. */
export type StaffRow = Selectable<StaffTable>;

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

  /** Every account, oldest first. */
  list(): Promise<StaffRow[]> {
    return this.db.selectFrom('staff').selectAll().orderBy('id').execute();
  }

  /** Creates an account. */
  create(row: Insertable<StaffTable>): Promise<StaffRow> {
    return this.db.insertInto('staff').values(row).returningAll().executeTakeFirstOrThrow();
  }

  /** Sets a new password hash. */
  async setPassword(id: number, passwordHash: string): Promise<void> {
    await this.db.updateTable('staff').set({ password_hash: passwordHash, disabled: 0 }).where('id', '=', id).execute();
  }
}
