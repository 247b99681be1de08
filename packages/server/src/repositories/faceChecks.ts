import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../db/database.js';
import type { FaceCheckTable } from '../db/schema.js';

/** A face check as stored. */
export type FaceCheckRow = Selectable<FaceCheckTable>;

/** The server's face checks of exam frames: queued, claimed under a lease, finished. */
export class FaceCheckRepository {
  constructor(private readonly db: Db) {}

  /** Queues a check; a second one of the same record is ignored. Answers whether it was queued. */
  async queue(row: Omit<Insertable<FaceCheckTable>, 'status' | 'lease_until'>): Promise<boolean> {
    const res = await this.db
      .insertInto('face_checks')
      .values({ ...row, status: 'pending', lease_until: null })
      .onConflict((oc) => oc.column('record_id').doNothing())
      .returning('id')
      .executeTakeFirst();
    return res !== undefined;
  }

  /**
   * Takes up to `limit` pending checks not held by a live lease, oldest first, holding them until `leaseUntil`;
   * a check whose checker died is taken again once its lease has run out.
   */
  async claim(now: number, limit: number, leaseUntil: number): Promise<FaceCheckRow[]> {
    const due = await this.db
      .selectFrom('face_checks')
      .select('id')
      .where('status', '=', 'pending')
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
      .orderBy('id')
      .limit(limit)
      .execute();
    if (due.length === 0) return [];
    return this.db
      .updateTable('face_checks')
      .set((eb) => ({ lease_until: leaseUntil, tries: eb('tries', '+', 1) }))
      .where(
        'id',
        'in',
        due.map((d) => d.id),
      )
      .where('status', '=', 'pending')
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
      .returningAll()
      .execute()
      .then((rows) => rows.sort((a, b) => a.id - b.id));
  }

  /** Records a check's outcome (done or failed) and lets go of its lease. */
  async finish(id: number, outcome: Updateable<FaceCheckTable> & { status: 'done' | 'failed' }): Promise<void> {
    await this.db
      .updateTable('face_checks')
      .set({ ...outcome, lease_until: null })
      .where('id', '=', id)
      .execute();
  }

  /** Lets go of a check to be tried again (e.g. the face checks were busy). */
  async release(id: number): Promise<void> {
    await this.db.updateTable('face_checks').set({ lease_until: null }).where('id', '=', id).execute();
  }

  /** Whether a browser flagged this picture of the attempt (a check of its flag is queued or done). */
  async flagged(attemptId: number, imageKey: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('face_checks')
      .select('id')
      .where('attempt_id', '=', attemptId)
      .where('image_key', '=', imageKey)
      .where('source', '=', 'flagged')
      .executeTakeFirst();
    return row !== undefined;
  }

  /** An attempt's checks in order. */
  async ofAttempt(attemptId: number): Promise<FaceCheckRow[]> {
    return this.db.selectFrom('face_checks').selectAll().where('attempt_id', '=', attemptId).orderBy('id').execute();
  }
}
