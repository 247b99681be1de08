import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../db/database.js';
import type { FaceCheckTable } from '../db/schema.js';

/** A face check as stored. */
export type FaceCheckRow = Selectable<FaceCheckTable>;

/** Where a check comes from: a browser's flag, or the sample of the frames no browser flagged. */
export type FaceCheckSource = 'flagged' | 'sampled';

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
   * Takes up to `limit` pending checks not held by a live lease, holding them until `leaseUntil`: the browsers'
   * flags first (a proctor waits on their verdicts), then the sampled frames, each oldest first. A check whose
   * checker died is taken again once its lease has run out.
   */
  async claim(now: number, limit: number, leaseUntil: number): Promise<FaceCheckRow[]> {
    const flagged = await this.due('flagged', now, limit);
    const due =
      flagged.length < limit ? [...flagged, ...(await this.due('sampled', now, limit - flagged.length))] : flagged;
    if (due.length === 0) return [];
    const order = new Map(due.map((id, k) => [id, k]));
    return this.db
      .updateTable('face_checks')
      .set((eb) => ({ lease_until: leaseUntil, tries: eb('tries', '+', 1) }))
      .where('id', 'in', due)
      .where('status', '=', 'pending')
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
      .returningAll()
      .execute()
      .then((rows) => rows.sort((a, b) => order.get(a.id)! - order.get(b.id)!));
  }

  /** Ids of up to `limit` pending checks of one source free to take, oldest first (through face_checks_due). */
  private async due(source: FaceCheckSource, now: number, limit: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('face_checks')
      .select('id')
      .where('status', '=', 'pending')
      .where('source', '=', source)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((r) => r.id);
  }

  /**
   * Marks the sampled checks queued before `before` and still pending as skipped (a sample says something only
   * while the exam runs; flags are never skipped); answers how many. Reads only the pending sampled rows.
   */
  async skipStaleSamples(before: number, now: number): Promise<number> {
    const res = await this.db
      .updateTable('face_checks')
      .set({ status: 'skipped', checked_at: now, lease_until: null })
      .where('status', '=', 'pending')
      .where('source', '=', 'sampled')
      .where('created_at', '<', before)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
      .executeTakeFirst();
    return Number(res.numUpdatedRows);
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
