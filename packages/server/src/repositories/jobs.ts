import type { Selectable, Updateable } from 'kysely';
import type { Db } from '../db/database.js';
import type { JobTable } from '../db/schema.js';

/** A job row. */
export type JobRow = Selectable<JobTable>;

/** A job row with its starter's name (null for the server's own). */
export type JobListRow = JobRow & { owner_name: string | null };

/**
 * The jobs a staff member may follow: `team`, those of the team and their own; `assigned`, their own and those of
 * the exams they are assigned to in `role`.
 */
export type JobReach =
  { kind: 'team'; teamId: number | null; staffId: number } | { kind: 'assigned'; staffId: number; role: string };

/** Filters, order and page of the console's job list. */
export interface JobListQuery {
  kind?: string | undefined;
  state?: string | undefined;
  /** Which jobs a non-admin sees (services/jobs.ts says who sees which); undefined: every job. */
  reach?: JobReach | undefined;
  sort: 'created' | 'kind' | 'state';
  order: 'asc' | 'desc';
  offset: number;
  limit: number;
}

const SORT_COLUMNS = { created: 'created_at', kind: 'kind', state: 'state' } as const;

/** The `job` table: what runners claim, renew, checkpoint and finish, and what the console lists. */
export class JobRepository {
  constructor(private readonly db: Db) {}

  /** Stores a queued job; answers its id. */
  async insert(row: {
    kind: string;
    payload: string;
    owner_staff_id: number | null;
    team_id: number | null;
    exam_id?: number | null;
    created_at: number;
    request_id?: string | null;
  }): Promise<number> {
    const { id } = await this.db
      .insertInto('job')
      .values({
        ...row,
        exam_id: row.exam_id ?? null,
        request_id: row.request_id ?? null,
        state: 'queued',
        progress_phase: null,
        cursor: null,
        result: null,
        error_code: null,
        error_message: null,
        locked_by: null,
        lease_until: null,
        started_at: null,
        finished_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return id;
  }

  /** The state of each of these jobs that exists. */
  async states(ids: readonly number[]): Promise<Map<number, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('job')
      .select(['id', 'state'])
      .where('id', 'in', [...ids])
      .execute();
    return new Map(rows.map((r) => [r.id, r.state]));
  }

  /** One job. */
  byId(id: number): Promise<JobRow | undefined> {
    return this.db.selectFrom('job').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** How many jobs are queued and running, by kind and state. */
  async depths(): Promise<{ kind: string; state: string; count: number }[]> {
    const rows = await this.db
      .selectFrom('job')
      .select(['kind', 'state', (eb) => eb.fn.countAll<number | string>().as('n')])
      .where('state', 'in', ['queued', 'running'])
      .groupBy(['kind', 'state'])
      .execute();
    return rows.map((r) => ({ kind: r.kind, state: r.state, count: Number(r.n) }));
  }

  /**
   * Ids of jobs a runner may take: queued, or running with a lease that ran out (its runner died); oldest first.
   * With `waitingSince`, only those queued since then at the latest, or whose lease ran out by then.
   */
  async claimable(now: number, limit: number, waitingSince = now): Promise<number[]> {
    const rows = await this.db
      .selectFrom('job')
      .select('id')
      .where((eb) =>
        eb.or([
          eb.and([eb('state', '=', 'queued'), eb('created_at', '<=', waitingSince)]),
          eb.and([eb('state', '=', 'running'), eb('lease_until', '<', Math.min(now, waitingSince))]),
        ]),
      )
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((r) => r.id);
  }

  /**
   * Takes a job for `runner` until `leaseUntil` when it is queued or its lease ran out; one conditional
   * update, so of two runners racing for a job one wins. Answers the row as claimed, or undefined.
   */
  async claim(id: number, runner: string, now: number, leaseUntil: number): Promise<JobRow | undefined> {
    const res = await this.db
      .updateTable('job')
      .set((eb) => ({
        state: 'running',
        locked_by: runner,
        lease_until: leaseUntil,
        attempts: eb('attempts', '+', 1),
        started_at: eb.fn.coalesce('started_at', eb.val(now)),
      }))
      .where('id', '=', id)
      .where((eb) =>
        eb.or([eb('state', '=', 'queued'), eb.and([eb('state', '=', 'running'), eb('lease_until', '<', now)])]),
      )
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) return undefined;
    return this.byId(id);
  }

  /** Sets `values` on the job while `runner` holds it (it is running); false when it does not. */
  private async setWhileHeld(id: number, runner: string, values: Updateable<JobTable>): Promise<boolean> {
    const res = await this.db
      .updateTable('job')
      .set(values)
      .where('id', '=', id)
      .where('locked_by', '=', runner)
      .where('state', '=', 'running')
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  /** Extends the runner's lease; answers whether cancel was asked, or undefined when the runner lost the job. */
  async renew(id: number, runner: string, leaseUntil: number): Promise<{ cancel: boolean } | undefined> {
    if (!(await this.setWhileHeld(id, runner, { lease_until: leaseUntil }))) return undefined;
    const row = await this.db.selectFrom('job').select('cancel_requested').where('id', '=', id).executeTakeFirst();
    return { cancel: row?.cancel_requested === 1 };
  }

  /** Records progress while the runner holds the job; false when it does not. */
  async progress(id: number, runner: string, done: number, total: number, phase: string | null): Promise<boolean> {
    return this.setWhileHeld(id, runner, { progress_done: done, progress_total: total, progress_phase: phase });
  }

  /** Stores the cursor (and progress) while the runner holds the job; false when it does not. Run it in the effect's transaction. */
  async checkpoint(
    id: number,
    runner: string,
    cursor: string,
    progress: { done: number; total: number } | undefined,
  ): Promise<boolean> {
    return this.setWhileHeld(id, runner, {
      cursor,
      ...(progress ? { progress_done: progress.done, progress_total: progress.total } : {}),
    });
  }

  /** Ends a job the runner holds: done with a result, failed with an error, or cancelled. */
  async finish(
    id: number,
    runner: string,
    end: { state: 'done' | 'failed' | 'cancelled'; result?: string; error?: { code: string; message: string } },
    now: number,
  ): Promise<boolean> {
    return this.setWhileHeld(id, runner, {
      state: end.state,
      result: end.result ?? null,
      error_code: end.error?.code ?? null,
      error_message: end.error?.message ?? null,
      locked_by: null,
      lease_until: null,
      finished_at: now,
    });
  }

  /** Gives a job up: back to queued for another runner (this process is stopping). */
  async release(id: number, runner: string): Promise<void> {
    await this.setWhileHeld(id, runner, { state: 'queued', locked_by: null, lease_until: null });
  }

  /** Fails a job whatever holds it (the queue gave up on it). */
  async abandon(id: number, error: { code: string; message: string }, now: number): Promise<void> {
    await this.db
      .updateTable('job')
      .set({
        state: 'failed',
        error_code: error.code,
        error_message: error.message,
        locked_by: null,
        lease_until: null,
        finished_at: now,
      })
      .where('id', '=', id)
      .where('state', 'in', ['queued', 'running'])
      .execute();
  }

  /** Cancels a queued job at once, or asks a running one to stop. */
  async requestCancel(id: number, now: number): Promise<void> {
    await this.db
      .updateTable('job')
      .set({ state: 'cancelled', finished_at: now, cancel_requested: 1 })
      .where('id', '=', id)
      .where('state', '=', 'queued')
      .execute();
    await this.db
      .updateTable('job')
      .set({ cancel_requested: 1 })
      .where('id', '=', id)
      .where('state', '=', 'running')
      .execute();
  }

  /** Jobs of a kind on an exam still queued or running, newest first, with their payloads. */
  unfinishedOn(kind: string, examId: number): Promise<{ id: number; payload: string }[]> {
    return this.db
      .selectFrom('job')
      .select(['id', 'payload'])
      .where('exam_id', '=', examId)
      .where('kind', '=', kind)
      .where('state', 'in', ['queued', 'running'])
      .orderBy('id', 'desc')
      .execute();
  }

  /** One page of jobs matching the filters (with their starters' names), and how many match in all. */
  async list(q: JobListQuery): Promise<{ rows: JobListRow[]; total: number }> {
    let base = this.db.selectFrom('job');
    if (q.kind !== undefined) base = base.where('job.kind', '=', q.kind);
    if (q.state !== undefined) base = base.where('job.state', '=', q.state);
    const reach = q.reach;
    if (reach?.kind === 'team') {
      base = base.where((eb) =>
        reach.teamId === null
          ? eb('job.owner_staff_id', '=', reach.staffId)
          : eb.or([eb('job.team_id', '=', reach.teamId), eb('job.owner_staff_id', '=', reach.staffId)]),
      );
    } else if (reach?.kind === 'assigned') {
      base = base.where((eb) =>
        eb.or([
          eb('job.owner_staff_id', '=', reach.staffId),
          eb(
            'job.exam_id',
            'in',
            eb
              .selectFrom('exam_staff')
              .select('exam_staff.exam_id')
              .where('exam_staff.staff_id', '=', reach.staffId)
              .where('exam_staff.role', '=', reach.role),
          ),
        ]),
      );
    }
    const counted = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    let page = base
      .leftJoin('staff', 'staff.id', 'job.owner_staff_id')
      .selectAll('job')
      .select('staff.name as owner_name');
    if (q.sort !== 'created') page = page.orderBy(`job.${SORT_COLUMNS[q.sort]}`, q.order);
    const rows = await page.orderBy('job.id', q.order).limit(q.limit).offset(q.offset).execute();
    return { rows, total: Number(counted.n) };
  }

  /** One job with its starter's name. */
  view(id: number): Promise<JobListRow | undefined> {
    return this.db
      .selectFrom('job')
      .leftJoin('staff', 'staff.id', 'job.owner_staff_id')
      .selectAll('job')
      .select('staff.name as owner_name')
      .where('job.id', '=', id)
      .executeTakeFirst();
  }
}
