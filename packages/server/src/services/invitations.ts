import {
  api,
  DEFAULT_AREA_CODE,
  DEFAULT_INVITATION_TEMPLATE,
  DEFAULT_REMINDER_MINUTES,
  DEFAULT_REMINDER_TEMPLATE,
  formatServerTime,
  renderSmsTemplate,
  SMS_LIMITS,
  SMS_STATES,
  type BulkInviteResult,
  type HeldBy,
  type SmsLimit,
  type CallDef,
  type ExamSmsData,
  type ParsedBody,
  type ParsedQuery,
  type ResendData,
  type RevokeData,
  type SmsListData,
  type SmsState,
  type StartedJobData,
} from '@examhall/contract';
import type { Insertable } from 'kysely';
import type { Db } from '../db/database.js';
import type { SmsMessageTable } from '../db/schema.js';
import { fail } from '../errors.js';
import type { Json, JobContext } from '../jobs/types.js';
import { ExamEditorRepository } from '../repositories/examEditor.js';
import type { ExamRow } from '../repositories/exams.js';
import { InvitationRepository, type InvitationContact } from '../repositories/invitations.js';
import type { AccessService, StaffActor } from './access.js';
import type { AuditService } from './audit.js';
import { BudgetTally, type SmsBudget } from './smsBudget.js';
import { effectiveWindow } from './timing.js';
import type { JobService } from './jobs.js';

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

/** What a text says and who gets it, before it is stored. */
interface TextValues {
  exam: Pick<ExamRow, 'id' | 'name' | 'start_at' | 'end_at' | 'team_id'>;
  template: string;
  purpose: 'invitation' | 'reminder' | 'resend';
  dedupeKey: string;
  staffId: number | null;
}

/**
 * Invitations by SMS: many phones or candidates invited to an exam in one job, each new invitation texted its
 * link; resends; revocations before a candidate starts; each exam's texts. Every text is counted against its
 * budgets as it is stored (smsBudget.ts), and one a budget holds back is stored 'held'. Sending itself is the SMS
 * dispatcher's (smsDispatch.ts): this service only queues.
 */
export class InvitationService {
  constructor(
    private readonly db: Db,
    private readonly deps: {
      access: AccessService;
      audit: AuditService;
      jobs: JobService;
      /** How many texts may go out (smsBudget.ts). */
      budget: SmsBudget;
      publicUrl: string;
      clock: () => number;
      /** Phones a bulk invitation handles per step (default BULK_STEP). */
      bulkStep?: number;
    },
  ) {}

  /** The exam a staff call names, after the access check. */
  private async exam(actor: StaffActor, call: CallDef, examId: number): Promise<ExamRow> {
    await this.deps.access.requireFor(actor, call, examId);
    const exam = await new ExamEditorRepository(this.db).byId(examId);
    if (!exam) throw fail('not_found', `no such exam ${examId}`);
    return exam;
  }

  /** The link a text carries: the candidate's own invitation page (login first when needed). */
  linkOf(examId: number, anid: number): string {
    return `${this.deps.publicUrl.replace(/\/+$/, '')}/exam/${examId}/${anid}`;
  }

  /** A text row for one invitation. */
  private text(v: TextValues, to: InvitationContact): Insertable<SmsMessageTable> {
    const now = this.deps.clock();
    // The candidate's own window: personal, else their slot's, else the exam's.
    const slot =
      to.slot_start !== null && to.slot_end !== null ? { start_at: to.slot_start, end_at: to.slot_end } : null;
    const window = effectiveWindow(
      { start_at: Number(v.exam.start_at), end_at: Number(v.exam.end_at) },
      { window_start: to.window_start, window_end: to.window_end },
      slot,
    );
    return {
      invitation_id: to.id,
      exam_id: v.exam.id,
      area_code: to.area_code,
      phone: to.phone,
      purpose: v.purpose,
      dedupe_key: v.dedupeKey,
      body: renderSmsTemplate(v.template, {
        name: to.name ?? '',
        exam: v.exam.name,
        start: formatServerTime(window.start_at).slice(0, 16),
        end: formatServerTime(window.end_at).slice(0, 16),
        link: this.linkOf(v.exam.id, to.id),
      }),
      state: 'queued',
      last_error: null,
      next_try_at: now,
      lease_until: null,
      created_at: now,
      sent_at: null,
      created_by: v.staffId,
    };
  }

  /** Queues one text per contact under `dedupeKey` (a contact that has one already keeps it). */
  async queueTexts(db: Db, v: TextValues, to: readonly InvitationContact[]): Promise<BudgetTally> {
    return this.store(
      db,
      v.exam,
      to.map((c) => this.text(v, c)),
    );
  }

  /**
   * Stores texts of one exam: each new one is counted against its budgets in the same transaction (in `db`'s, or
   * one of its own) and queued, or kept with state 'held' and the budget that held it back. A text stored already
   * (same invitation and key) is left as it is and counts nowhere.
   */
  private async store(
    db: Db,
    exam: Pick<ExamRow, 'id' | 'team_id'>,
    rows: readonly Insertable<SmsMessageTable>[],
  ): Promise<BudgetTally> {
    if (rows.length === 0) return new BudgetTally();
    if (!db.isTransaction) return db.transaction().execute((trx) => this.store(trx, exam, rows));
    const repo = new InvitationRepository(db);
    // In invitation order: two senders storing texts of the same invitations wait for each other, never deadlock.
    const added = await repo.queue([...rows].sort((a, b) => a.invitation_id - b.invitation_id));
    const verdicts = await this.deps.budget.take(
      db,
      added.map((t) => ({
        purpose: t.purpose as 'invitation' | 'reminder' | 'resend',
        area_code: t.area_code,
        phone: t.phone,
        invitation_id: t.invitation_id,
        exam_id: exam.id,
        team_id: exam.team_id,
      })),
    );
    const tally = new BudgetTally();
    const held = new Map<SmsLimit, number[]>();
    verdicts.forEach((v, i) => {
      tally.add(v);
      if (v.held !== null) held.set(v.held as SmsLimit, [...(held.get(v.held as SmsLimit) ?? []), added[i]!.id]);
    });
    for (const [limit, ids] of held) await repo.hold(ids, limit);
    return tally;
  }

  // ---- bulk invitations ----

  /** The exam a bulk invitation names, when `actor` may invite to it and it still takes invitations. */
  async checkBulk(actor: StaffActor, examId: number): Promise<ExamRow> {
    const exam = await this.exam(actor, api.invitationsBulk, examId);
    if (exam.status === 'archived') throw fail('exam_archived');
    return exam;
  }

  /** POST /admin/exam/invitations/bulk: starts the job and answers its id. */
  async startBulk(actor: StaffActor, body: ParsedBody<typeof api.invitationsBulk>): Promise<StartedJobData> {
    const exam = await this.checkBulk(actor, body.exam_id);
    const payload: BulkInvitePayload = {
      title: exam.name,
      exam_id: exam.id,
      phones: body.phones.map((p) => ({ area_code: p.area_code || DEFAULT_AREA_CODE, phone: p.phone })),
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
    const template = (await this.smsSettingsOf(exam.id)).invitation_template;
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
          const repo = new InvitationRepository(trx);
          const made = await repo.inviteMissing(exam.id, step, this.deps.clock());
          const standing = (await repo.contactsByPhone(exam.id, step)).filter((c) => c.revoked_at === null);
          const texts = p.send_sms
            ? await this.queueTexts(
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

  // ---- resend and revoke ----

  /**
   * POST /admin/exam/invitations/resend: each standing invitation gets its link again, within its budgets; those a
   * budget holds back are stored 'held'. When every text is held back the call answers 429 with the budget that
   * held the most (the held texts are kept all the same, so the console shows them).
   */
  async resend(actor: StaffActor, body: ParsedBody<typeof api.invitationsResend>): Promise<ResendData> {
    const exam = await this.exam(actor, api.invitationsResend, body.exam_id);
    const template = (await this.smsSettingsOf(exam.id)).invitation_template;
    const { tally, skipped } = await this.db.transaction().execute(async (trx) => {
      const repo = new InvitationRepository(trx);
      const contacts = (await repo.contactsById(exam.id, body.anids)).filter((c) => c.revoked_at === null);
      const rows = [];
      for (const c of contacts) {
        const n = await repo.countTexts(c.id, 'resend');
        rows.push(this.text({ exam, template, purpose: 'resend', dedupeKey: `resend:${n + 1}`, staffId: actor.id }, c));
      }
      const tally = await this.store(trx, exam, rows);
      const sent = new Set(contacts.map((c) => c.id));
      await this.deps.audit.with(trx).record(actor, 'exam.invite_resend', { kind: 'exam', id: exam.id }, null, {
        anids: [...sent],
      });
      return { tally, skipped: body.anids.filter((id) => !sent.has(id)) };
    });
    if (tally.sent === 0 && tally.held > 0) throw this.deps.budget.refusal(tally);
    return { queued: tally.sent, held: tally.held, held_by: tally.held_by, skipped };
  }

  /** POST /admin/exam/invitations/revoke: revokes invitations not yet started and cancels their queued texts. */
  async revoke(actor: StaffActor, body: ParsedBody<typeof api.invitationsRevoke>): Promise<RevokeData> {
    const exam = await this.exam(actor, api.invitationsRevoke, body.exam_id);
    return this.db.transaction().execute(async (trx) => {
      const repo = new InvitationRepository(trx);
      const revoked = await repo.revoke(exam.id, body.anids, body.reason, this.deps.clock());
      await repo.cancelQueued(revoked);
      if (revoked.length > 0)
        await this.deps.audit
          .with(trx)
          .record(actor, 'exam.invite_revoke', { kind: 'exam', id: exam.id }, null, { anids: revoked }, body.reason);
      const done = new Set(revoked);
      return { revoked, skipped: body.anids.filter((id) => !done.has(id)) };
    });
  }

  // ---- each exam's texts ----

  /** An exam's texts: saved ones or the defaults. */
  async smsSettingsOf(examId: number): Promise<ExamSmsData> {
    const row = await new InvitationRepository(this.db).smsSettings(examId);
    if (!row)
      return {
        invitation_template: DEFAULT_INVITATION_TEMPLATE,
        reminder_template: DEFAULT_REMINDER_TEMPLATE,
        reminder_minutes: [...DEFAULT_REMINDER_MINUTES],
        is_default: true,
      };
    return {
      invitation_template: row.invitation_template,
      reminder_template: row.reminder_template,
      reminder_minutes: JSON.parse(row.reminder_minutes) as number[],
      is_default: false,
    };
  }

  /** GET /admin/exam/sms-settings. */
  async smsSettings(actor: StaffActor, examId: number): Promise<ExamSmsData> {
    await this.exam(actor, api.examSms, examId);
    return this.smsSettingsOf(examId);
  }

  /** POST /admin/exam/sms-settings. */
  async saveSmsSettings(actor: StaffActor, body: ParsedBody<typeof api.examSmsSave>): Promise<ExamSmsData> {
    const exam = await this.exam(actor, api.examSmsSave, body.exam_id);
    const before = await this.smsSettingsOf(exam.id);
    const minutes = [...body.reminder_minutes].sort((a, b) => b - a);
    await this.db.transaction().execute(async (trx) => {
      await new InvitationRepository(trx).saveSmsSettings({
        exam_id: exam.id,
        invitation_template: body.invitation_template,
        reminder_template: body.reminder_template,
        reminder_minutes: JSON.stringify(minutes),
        updated_at: this.deps.clock(),
        updated_by: actor.id,
      });
      const { is_default: _, ...was } = before;
      await this.deps.audit.with(trx).record(actor, 'exam.sms_settings', { kind: 'exam', id: exam.id }, was, {
        invitation_template: body.invitation_template,
        reminder_template: body.reminder_template,
        reminder_minutes: minutes,
      });
    });
    return this.smsSettingsOf(exam.id);
  }

  /** GET /admin/exam/sms: the exam's texts, one page, with counts per state. */
  async messages(actor: StaffActor, q: ParsedQuery<typeof api.smsList>): Promise<SmsListData> {
    await this.exam(actor, api.smsList, q.exam_id);
    const repo = new InvitationRepository(this.db);
    const [{ rows, total }, counts] = await Promise.all([
      repo.list({
        exam_id: q.exam_id,
        page: q.page,
        page_size: q.page_size,
        ...(q.state ? { state: q.state } : {}),
        ...(q.phone ? { phone: q.phone } : {}),
      }),
      repo.countsByState(q.exam_id),
    ]);
    return {
      list: rows.map((r) => ({
        id: r.id,
        anid: r.invitation_id,
        area_code: r.area_code,
        phone: r.phone,
        purpose: r.purpose as SmsListData['list'][number]['purpose'],
        state: r.state as SmsState,
        tries: r.tries,
        last_error: r.last_error,
        created_at: Number(r.created_at),
        sent_at: r.sent_at === null ? null : Number(r.sent_at),
        next_try_at: Number(r.next_try_at),
        held_by: r.held_by as SmsLimit | null,
      })),
      total,
      counts: Object.fromEntries(SMS_STATES.map((s) => [s, counts.get(s) ?? 0])) as SmsListData['counts'],
    };
  }
}
