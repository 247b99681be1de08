import type { api } from '@examhall/contract';
import { JOB_KINDS, type JobKind, type JobListData, type JobView } from '@examhall/contract';
import type { z } from 'zod';
import type { Db } from '../db/database.js';
import { fail } from '../http/errors.js';
import { currentRequestId } from '../ops/context.js';
import { JobRepository, type JobListRow } from '../repositories/jobs.js';
import type { JobQueue, Json } from '../jobs/types.js';
import type { AccessService, StaffActor } from './access.js';
import type { AuditService } from './audit.js';

/** What a job's starter puts in every payload: a short description the console shows. */
export interface TitledPayload {
  title: string;
  [key: string]: Json;
}

/** The job list query, validated. */
type ListQuery = z.output<typeof api.jobList.query>;

/** A stored job as the console shows it. */
function toView(row: JobListRow): JobView {
  let title = '';
  try {
    const payload = JSON.parse(row.payload) as { title?: unknown };
    if (typeof payload.title === 'string') title = payload.title;
  } catch {
    // an unreadable payload shows no title
  }
  const kind = JOB_KINDS.find((k) => k === row.kind) ?? JOB_KINDS[0];
  return {
    id: row.id,
    kind,
    title,
    state: row.state as JobView['state'],
    progress: { done: row.progress_done, total: row.progress_total, phase: row.progress_phase },
    result: row.result === null ? null : (JSON.parse(row.result) as unknown),
    error: row.error_code === null ? null : { code: row.error_code, message: row.error_message ?? '' },
    cancel_requested: row.cancel_requested === 1,
    attempts: row.attempts,
    owner_staff_id: row.owner_staff_id,
    owner_name: row.owner_name ?? '',
    team_id: row.team_id,
    created_at: row.created_at,
    started_at: row.started_at,
    finished_at: row.finished_at,
  };
}

/**
 * Jobs as staff see them: each starts one (an import, later invitations and exports) and follows it; the
 * list holds one's own and one's team's jobs (an admin's: every job), and either may cancel them.
 */
export class JobService {
  private readonly repo: JobRepository;

  constructor(
    db: Db,
    private readonly queue: JobQueue<JobKind>,
    private readonly access: AccessService,
    private readonly audit: AuditService,
  ) {
    this.repo = new JobRepository(db);
  }

  /** Queues a job for the actor (owned by them and their team, or by `teamId` when given); answers its id. */
  start(actor: StaffActor, kind: JobKind, payload: TitledPayload, teamId?: number | null): Promise<number> {
    return this.queue.enqueue({
      kind,
      payload,
      owner: { staffId: actor.id, teamId: teamId === undefined ? actor.teamId : teamId },
      requestId: currentRequestId(),
    });
  }

  /** One page of the jobs the actor may follow. */
  async list(actor: StaffActor, q: ListQuery): Promise<JobListData> {
    const { rows, total } = await this.repo.list({
      kind: q.kind,
      state: q.state,
      reach: actor.role === 'admin' ? undefined : { teamId: actor.teamId, staffId: actor.id },
      sort: q.sort,
      order: q.order,
      offset: (q.page - 1) * q.page_size,
      limit: q.page_size,
    });
    return { list: rows.map(toView), total };
  }

  /** One job the actor may follow. */
  async detail(actor: StaffActor, jobId: number): Promise<JobView> {
    await this.access.require(actor, 'job.read', 'job', jobId);
    const row = await this.repo.view(jobId);
    if (!row) throw fail('not_found', `no such job ${jobId}`);
    return toView(row);
  }

  /** Cancels a job the actor may follow; `job_finished` when it already ended. */
  async cancel(actor: StaffActor, jobId: number): Promise<JobView> {
    const before = await this.detail(actor, jobId);
    if (before.state === 'done' || before.state === 'failed' || before.state === 'cancelled') {
      throw fail('job_finished', `job ${jobId} is ${before.state}`);
    }
    await this.queue.cancel(jobId);
    const after = await this.detail(actor, jobId);
    await this.audit.record(
      actor,
      'job.cancel',
      { kind: 'job', id: jobId },
      { state: before.state, kind: before.kind },
      { state: after.state, cancel_requested: after.cancel_requested },
    );
    return after;
  }
}
