import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { RiskRecordTable } from '../db/schema.js';

/** Risk records of attempts. */
export class RiskRepository {
  constructor(private readonly db: Db) {}

  /** The record a client id was stored as. */
  byClientId(attemptId: number, clientId: string) {
    return this.db
      .selectFrom('risk_records')
      .select(['id', 'hash'])
      .where('attempt_id', '=', attemptId)
      .where('client_id', '=', clientId)
      .executeTakeFirst();
  }

  /** Hash of the last record of an attempt's chain. */
  async lastHash(attemptId: number): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('risk_records')
      .select('hash')
      .where('attempt_id', '=', attemptId)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row?.hash;
  }

  /** Inserts a record; returns its id. */
  async insert(row: Insertable<RiskRecordTable>): Promise<number> {
    const r = await this.db.insertInto('risk_records').values(row).returning('id').executeTakeFirstOrThrow();
    return r.id;
  }

  /** Every record of an attempt in chain order. */
  chain(attemptId: number): Promise<Selectable<RiskRecordTable>[]> {
    return this.db.selectFrom('risk_records').selectAll().where('attempt_id', '=', attemptId).orderBy('id').execute();
  }

  /** Counts one screen switch; returns the switches so far. */
  async addCut(attemptId: number): Promise<number> {
    const r = await this.db
      .updateTable('attempts')
      .set((eb) => ({ cuts_used: eb('cuts_used', '+', 1) }))
      .where('id', '=', attemptId)
      .returning('cuts_used')
      .executeTakeFirstOrThrow();
    return r.cuts_used;
  }
}
