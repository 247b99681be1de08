import type { api } from '@examhall/contract';
import { JOB_KINDS, type JobKind, type JobListData, type JobView } from '@examhall/contract';
import type { z } from 'zod';
import type { Db } from '../db/database.js';
import { fail } from '../errors.js';
import { currentRequestId } from '../ops/context.js';
import { JobRepository, type JobListRow, type JobReach } from '../repositories/jobs.js';
import { TeamRepository } from '../repositories/teams.js';
import type { JobQueue, Json } from '../jobs/types.js';
import type { AccessService, StaffActor } from './access.js';
import type { AuditService } from './audit.js';

/**
 * What a job's starter puts in every payload: a short description the console shows, and the exam the job works
 * on, if any (`exam_id`), which decides who besides the team follows it.
 */
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
 * Jobs as staff see them: each starts one (an import, invitations, an export, a similarity run, a re-score) and
 * follows it. Who sees a job and who may stop it, the one rule of the list, the detail and cancel:
 *
 * - follow: its owner, an admin, an author of its team, and a proctor or grader assigned to the exam it works
 *   on; a proctor or grader sees no other job of the team (its titles name files, exams and people);
 * - cancel: its owner, an admin, or an author of its team, who manages what a team's jobs work on (its bank,
 *   exams and candidates). Anyone else who follows it answers `job_cancel_forbidden`.
 */
export class JobService {
  private readonly repo: JobRepository;

  private readonly teams: TeamRepository;

  constructor(
    db: Db,
    private readonly queue: JobQueue<JobKind>,
    private readonly access: AccessService,
    private readonly audit: AuditService,
  ) {
    this.repo = new JobRepository(db);
    this.teams = new TeamRepository(db);
  }

  /** Queues a job for the actor (owned by them and their team, or by `teamId` when given); answers its id. */
  start(actor: StaffActor, kind: JobKind, payload: TitledPayload, teamId?: number | null): Promise<number> {
    return this.queue.enqueue({
      kind,
      payload,
      owner: { staffId: actor.id, teamId: teamId === undefined ? actor.teamId : teamId },
      examId: typeof payload.exam_id === 'number' ? payload.exam_id : null,
      requestId: currentRequestId(),
    });
  }

  /**
   * Queues a job on an exam unless one of its kind there, whose payload `same` accepts, is still queued or running;
   * answers that one's id or the new one's. Two processes asking at the same moment may both queue one: the work
   * is then done twice, never lost.
   */
  async startOnce(
    actor: StaffActor,
    kind: JobKind,
    payload: TitledPayload & { exam_id: number },
    teamId: number | null,
    same: (other: Record<string, unknown>) => boolean,
  ): Promise<number> {
    for (const job of await this.repo.unfinishedOn(kind, payload.exam_id)) {
      if (same(JSON.parse(job.payload) as Record<string, unknown>)) return job.id;
    }
    return this.start(actor, kind, payload, teamId);
  }

  /** Whose jobs the actor's list holds (see the class's rule). */
  private static reach(actor: StaffActor): JobReach | undefined {
    switch (actor.role) {
      case 'admin':
        return undefined;
      case 'author':
        return { kind: 'team', teamId: actor.teamId, staffId: actor.id };
      case 'proctor':
      case 'grader':
        return { kind: 'assigned', staffId: actor.id, role: actor.role };
    }
  }

  /** True when the actor may follow the job (see the class's rule). */
  private async follows(actor: StaffActor, job: JobListRow): Promise<boolean> {
    if (actor.role === 'admin' || job.owner_staff_id === actor.id) return true;
    if (actor.role === 'author') return job.team_id !== null && job.team_id === actor.teamId;
    return job.exam_id !== null && (await this.teams.assignment(job.exam_id, actor.id, actor.role)) !== undefined;
  }

  /** True when the actor may cancel the job (see the class's rule). */
  private static cancels(actor: StaffActor, job: JobListRow): boolean {
    if (actor.role === 'admin' || job.owner_staff_id === actor.id) return true;
    return actor.role === 'author' && job.team_id !== null && job.team_id === actor.teamId;
  }

  /** One page of the jobs the actor may follow. */
  async list(actor: StaffActor, q: ListQuery): Promise<JobListData> {
    const { rows, total } = await this.repo.list({
      kind: q.kind,
      state: q.state,
      reach: JobService.reach(actor),
      sort: q.sort,
      order: q.order,
      offset: (q.page - 1) * q.page_size,
      limit: q.page_size,
    });
    return { list: rows.map(toView), total };
  }

  /** A job the actor may follow; one they may not is not found, as a missing one. */
  private async followed(actor: StaffActor, jobId: number): Promise<JobListRow> {
    await this.access.require(actor, 'job.read', 'job', jobId);
    const row = await this.repo.view(jobId);
    if (!row || !(await this.follows(actor, row))) throw fail('not_found', `no such job ${jobId}`);
    return row;
  }

  /** One job the actor may follow. */
  async detail(actor: StaffActor, jobId: number): Promise<JobView> {
    return toView(await this.followed(actor, jobId));
  }

  /** Cancels a job the actor may cancel; `job_finished` when it already ended. */
  async cancel(actor: StaffActor, jobId: number): Promise<JobView> {
    const row = await this.followed(actor, jobId);
    if (!JobService.cancels(actor, row)) {
      throw fail('job_cancel_forbidden');
    }
    const before = toView(row);
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
