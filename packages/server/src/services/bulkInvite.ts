import {
  api,
  SMS_LIMITS,
  type BulkInviteResult,
  type HeldBy,
  type ParsedBody,
  type StartedJobData,
} from '@examhall/contract';
import type { Db } from '../db/database.js';
import { fail } from '../errors.js';
import type { Json, JobContext } from '../jobs/types.js';
import { ExamEditorRepository } from '../repositories/examEditor.js';
import type { ExamRow } from '../repositories/exams.js';
import { InvitationRepository } from '../repositories/invitations.js';
import type { AccessService, StaffActor } from './access.js';
import type { AuditService } from './audit.js';
import { examInReach } from './examVersions.js';
import { withAreaCode, type InvitationService } from './invitations.js';
import type { InvitationTexts } from './invitationTexts.js';
import type { JobService } from './jobs.js';
import { BudgetTally } from './smsBudget.js';

/** Phones one step of a bulk invitation handles, in one transaction. */
export const BULK_STEP = 250;

/** What a bulk invitation job carries. */
export interface BulkInvitePayload {
  [key: string]: Json;
  title: string;
  exam_id: number;
  phones: { area_code: string; phone: string }[];
  candidate_ids: number[];
  send_sms: boolean;
  staff_id: number | null;
}

/** How far a bulk invitation job got, stored with each step. */
interface BulkCursor {
  [key: string]: Json;
  done: number;
  created: number;
  existing: number;
  queued: number;
  /** Texts held back so far, per budget. */
  held_by: HeldBy;
}

/** What bulk invitations need. */
export interface BulkInviteDeps {
  access: AccessService;
  audit: AuditService;
  jobs: Pick<JobService, 'start'>;
  /** Where the invitations are made. */
  invitations: Pick<InvitationService, 'inviteMany'>;
  /** Where their texts are queued. */
  texts: Pick<InvitationTexts, 'smsSettingsOf' | 'queueTexts'>;
  /** Phones a bulk invitation handles per step (default BULK_STEP). */
  bulkStep?: number;
}

/**
 * Bulk invitations: many phones or directory candidates invited to an exam in one job, each new invitation texted
 * its link (the call, and the job that does the work in steps).
 */
export class BulkInviteService {
  constructor(
    private readonly db: Db,
    private readonly deps: BulkInviteDeps,
  ) {}

  /** The exam a bulk invitation names, when `actor` may invite to it and it still takes invitations. */
  async checkBulk(actor: StaffActor, examId: number): Promise<ExamRow> {
    const exam = await examInReach(
      this.deps.access,
      new ExamEditorRepository(this.db),
      actor,
      api.invitationsBulk,
      examId,
    );
    if (exam.status === 'archived') throw fail('exam_archived');
    return exam;
  }

  /** POST /admin/exam/invitations/bulk: starts the job and answers its id. */
  async startBulk(actor: StaffActor, body: ParsedBody<typeof api.invitationsBulk>): Promise<StartedJobData> {
    const exam = await this.checkBulk(actor, body.exam_id);
    const payload: BulkInvitePayload = {
      title: exam.name,
      exam_id: exam.id,
      phones: body.phones.map(withAreaCode),
      candidate_ids: body.candidate_ids,
      send_sms: body.send_sms,
      staff_id: actor.id,
    };
    const jobId = await this.deps.jobs.start(actor, 'invitation_bulk', payload, exam.team_id);
    await this.deps.audit.record(actor, 'exam.invite_bulk', { kind: 'exam', id: exam.id }, null, {
      job_id: jobId,
      phones: payload.phones.length,
      candidates: payload.candidate_ids.length,
      send_sms: body.send_sms,
    });
    return { job_id: jobId };
  }

  /**
   * The bulk invitation job: the phones (and the candidates' phones), in steps of BULK_STEP, each step one
   * transaction that invites the new phones, queues their texts and stores how far the job got. A job resumed
   * after its runner died starts after the last step stored, and a text is queued once per invitation
   * whatever happens, so nobody is invited or texted twice.
   */
  async runBulk(ctx: JobContext<BulkInvitePayload>): Promise<BulkInviteResult> {
    const p = ctx.payload;
    const exam = await new ExamEditorRepository(this.db).byId(p.exam_id);
    if (!exam) throw fail('not_found', `no such exam ${p.exam_id}`);
    const found = await new InvitationRepository(this.db).candidatePhones(p.candidate_ids);
    const unknown = p.candidate_ids.filter((id) => !found.some((c) => c.id === id));
    const phones = [...p.phones, ...found.map((c) => ({ area_code: c.area_code, phone: c.phone }))];
    const template = (await this.deps.texts.smsSettingsOf(exam.id)).invitation_template;
    const stored = ctx.cursor as Partial<BulkCursor> | null;
    // A job resumed from a cursor stored before texts had budgets has no held_by.
    const tally: BulkCursor = {
      done: 0,
      created: 0,
      existing: 0,
      queued: 0,
      ...stored,
      held_by: { ...new BudgetTally().held_by, ...stored?.held_by },
    };
    await ctx.progress(tally.done, phones.length, 'invitations');
    while (tally.done < phones.length) {
      const step = phones.slice(tally.done, tally.done + (this.deps.bulkStep ?? BULK_STEP));
      // The tally after the step is the cursor, stored by the step's own commit.
      const next = await ctx.checkpoint(
        (after: typeof tally) => ({ ...after }),
        async (trx) => {
          const made = await this.deps.invitations.inviteMany(trx, exam.id, step);
          const standing = (await new InvitationRepository(trx).contactsByPhone(exam.id, step)).filter(
            (c) => c.revoked_at === null,
          );
          const texts = p.send_sms
            ? await this.deps.texts.queueTexts(
                trx,
                { exam, template, purpose: 'invitation', dedupeKey: 'invitation', staffId: p.staff_id },
                standing,
              )
            : new BudgetTally();
          return {
            done: tally.done + step.length,
            created: tally.created + made.created,
            existing: tally.existing + made.existing,
            queued: tally.queued + texts.sent,
            held_by: Object.fromEntries(SMS_LIMITS.map((l) => [l, tally.held_by[l] + texts.held_by[l]])) as HeldBy,
          };
        },
        { done: tally.done + step.length, total: phones.length },
      );
      Object.assign(tally, next);
      await ctx.progress(tally.done, phones.length, 'invitations');
    }
    return {
      created: tally.created,
      existing: tally.existing,
      queued: tally.queued,
      held: SMS_LIMITS.reduce((n, l) => n + tally.held_by[l], 0),
      held_by: tally.held_by,
      unknown_candidates: unknown,
    };
  }
}
