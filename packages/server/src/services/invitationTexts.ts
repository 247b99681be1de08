import {
  DEFAULT_INVITATION_TEMPLATE,
  DEFAULT_REMINDER_MINUTES,
  DEFAULT_REMINDER_TEMPLATE,
  formatServerTime,
  renderSmsTemplate,
  type ExamSmsData,
  type SmsLimit,
} from '@examhall/contract';
import type { Insertable } from 'kysely';
import type { Db } from '../db/database.js';
import type { SmsMessageTable } from '../db/schema.js';
import type { ExamRow } from '../repositories/exams.js';
import { InvitationRepository, type InvitationContact } from '../repositories/invitations.js';
import { BudgetTally, type SmsBudget } from './smsBudget.js';
import { effectiveWindow } from './timing.js';

/** What a text says and who gets it, before it is stored. */
export interface TextValues {
  exam: Pick<ExamRow, 'id' | 'name' | 'start_at' | 'end_at' | 'team_id'>;
  template: string;
  purpose: 'invitation' | 'reminder' | 'resend';
  dedupeKey: string;
  staffId: number | null;
}

/** What invitations' texts need. */
export interface InvitationTextDeps {
  /** How many texts may go out (smsBudget.ts). */
  budget: Pick<SmsBudget, 'take'>;
  publicUrl: string;
  clock: () => number;
}

/**
 * Invitations' texts as they are queued: each exam's templates, a text's words and link for one invitation, and
 * every text counted against its budgets as it is stored (smsBudget.ts), one a budget holds back stored 'held'.
 * Sending is the SMS dispatcher's (smsDispatch.ts): this only queues.
 */
export class InvitationTexts {
  constructor(
    private readonly db: Db,
    private readonly deps: InvitationTextDeps,
  ) {}

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

  /** The link a text carries: the candidate's own invitation page (login first when needed). */
  linkOf(examId: number, anid: number): string {
    return `${this.deps.publicUrl.replace(/\/+$/, '')}/exam/${examId}/${anid}`;
  }

  /** A text row for one invitation. */
  text(v: TextValues, to: InvitationContact): Insertable<SmsMessageTable> {
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
  async store(
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
}
