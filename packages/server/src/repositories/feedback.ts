import type { Insertable } from 'kysely';
import type { Db } from '../db/database.js';
import type { FeedbackTable } from '../db/schema.js';

/** Candidate feedback. */
export class FeedbackRepository {
  constructor(private readonly db: Db) {}

  /** Stores feedback unless this client id was stored already; returns the id either way. */
  async put(row: Insertable<FeedbackTable>): Promise<number> {
    await this.db
      .insertInto('feedback')
      .values(row)
      .onConflict((oc) => oc.columns(['candidate_id', 'client_id']).doNothing())
      .execute();
    const r = await this.db
      .selectFrom('feedback')
      .select('id')
      .where('candidate_id', '=', row.candidate_id)
      .where('client_id', '=', row.client_id)
      .executeTakeFirstOrThrow();
    return r.id;
  }
}
