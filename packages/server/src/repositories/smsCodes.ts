import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { SmsCodeTable } from '../db/schema.js';

/** An SMS code row (hash only). */
export type SmsCode = Selectable<SmsCodeTable>;

/** SMS login codes. */
export class SmsCodeRepository {
  constructor(private readonly db: Db) {}

  /** Stores a code about to be sent; returns its id. */
  async insert(row: Insertable<SmsCodeTable>): Promise<number> {
    const r = await this.db.insertInto('sms_codes').values(row).returning('id').executeTakeFirstOrThrow();
    return r.id;
  }

  /**
   * Records that codes were not delivered (refused by the provider, or left unsent by a stopping process): they
   * cannot log in (the sender gives back what they were counted in: services/smsBudget.ts).
   */
  async markFailed(ids: readonly number[], now: number): Promise<void> {
    if (ids.length === 0) return;
    await this.db
      .updateTable('sms_codes')
      .set({ failed_at: now })
      .where('id', 'in', ids)
      .where('failed_at', 'is', null)
      .execute();
  }

  /** The most recent code sent, or queued to be sent, to a phone; refused ones do not count. */
  latest(areaCode: string, phone: string): Promise<SmsCode | undefined> {
    return this.db
      .selectFrom('sms_codes')
      .selectAll()
      .where('area_code', '=', areaCode)
      .where('phone', '=', phone)
      .where('failed_at', 'is', null)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  /** Counts a wrong try; returns the tries so far. */
  async addAttempt(id: number): Promise<number> {
    const row = await this.db
      .updateTable('sms_codes')
      .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
      .where('id', '=', id)
      .returning('attempts')
      .executeTakeFirstOrThrow();
    return row.attempts;
  }

  /** Marks a code used; false when another request used it first. */
  async consume(id: number, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('sms_codes')
      .set({ consumed_at: now })
      .where('id', '=', id)
      .where('consumed_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}
