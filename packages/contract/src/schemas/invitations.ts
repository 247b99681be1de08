/** Invitations by SMS: bulk invitations, resends, revocations, each exam's texts and their delivery. */
import { z } from 'zod';
import { REMINDERS_MAX, SMS_TEMPLATE_MAX, smsTemplateProblems } from '../smsTemplate.js';
import { EpochMs, Id, IdParam, PageQuery } from './common.js';
import { InvitePhone } from './examEditor.js';

/** How many phones one bulk invitation takes. */
export const BULK_INVITE_MAX = 20_000;

/**
 * The budgets a text to a candidate may be held back by: an invitation's resends (one per interval, a few a day),
 * a phone's texts a day (login codes included), an exam's and a team's texts a day.
 */
export const SMS_LIMITS = ['resend_interval', 'resend_daily', 'phone_daily', 'exam_daily', 'team_daily'] as const;
/** A budget a text may be held back by. */
export type SmsLimit = (typeof SMS_LIMITS)[number];

/** How many texts each budget held back. */
export const HeldBy = z.record(z.enum(SMS_LIMITS), z.number().int());
/** How many texts each budget held back. */
export type HeldBy = z.infer<typeof HeldBy>;

/** POST /admin/exam/invitations/bulk body: phones, candidates of the directory, or both. */
export const BulkInviteBody = z
  .object({
    /** Exam id. */
    exam_id: Id,
    /** Phones to invite. */
    phones: z.array(InvitePhone).max(BULK_INVITE_MAX).default([]),
    /** Candidates (by id) to invite. */
    candidate_ids: z.array(Id).max(BULK_INVITE_MAX).default([]),
    /** Whether each new invitation gets its text (default yes). */
    send_sms: z.boolean().default(true),
  })
  .refine((b) => b.phones.length + b.candidate_ids.length > 0, {
    path: ['phones'],
    message: 'name at least one phone or candidate',
  })
  .refine((b) => b.phones.length + b.candidate_ids.length <= BULK_INVITE_MAX, {
    path: ['phones'],
    message: `at most ${BULK_INVITE_MAX} at once`,
  });
/** POST /admin/exam/invitations/bulk body. */
export type BulkInviteBody = z.input<typeof BulkInviteBody>;

/** A started job. */
export const StartedJobData = z.object({
  /** The job's id: its progress and result are read from the job list. */
  job_id: z.number().int(),
});
/** A started job. */
export type StartedJobData = z.infer<typeof StartedJobData>;

/** What a bulk invitation job answers when done. */
export const BulkInviteResult = z.object({
  /** Invitations made. */
  created: z.number().int(),
  /** Phones invited already (kept as they were). */
  existing: z.number().int(),
  /** Texts queued. */
  queued: z.number().int(),
  /** Texts held back by a budget (listed with state 'held' among the exam's texts). */
  held: z.number().int(),
  /** Of those, how many each budget held back. */
  held_by: HeldBy,
  /** Candidate ids that name nobody. */
  unknown_candidates: z.array(z.number().int()),
});
/** What a bulk invitation job answers when done. */
export type BulkInviteResult = z.infer<typeof BulkInviteResult>;

/** Invitations of one exam, by anid. */
const Anids = z.array(Id).min(1).max(1000);

/** POST /admin/exam/invitations/resend body. */
export const ResendBody = z.object({
  /** Exam id. */
  exam_id: Id,
  /** The invitations whose text goes out again. */
  anids: Anids,
});
/** POST /admin/exam/invitations/resend body. */
export type ResendBody = z.input<typeof ResendBody>;

/** POST /admin/exam/invitations/resend data (when every text is held back the call answers 429 instead). */
export const ResendData = z.object({
  /** Texts queued. */
  queued: z.number().int(),
  /** Texts held back by a budget (listed with state 'held' among the exam's texts). */
  held: z.number().int(),
  /** Of those, how many each budget held back. */
  held_by: HeldBy,
  /** Invitations skipped: revoked, or not this exam's. */
  skipped: z.array(z.number().int()),
});
/** POST /admin/exam/invitations/resend data. */
export type ResendData = z.infer<typeof ResendData>;

/** POST /admin/exam/invitations/revoke body. */
export const RevokeBody = z.object({
  /** Exam id. */
  exam_id: Id,
  /** The invitations to revoke. */
  anids: Anids,
  /** Why: kept in the audit log. */
  reason: z.string().trim().min(1).max(500),
});
/** POST /admin/exam/invitations/revoke body. */
export type RevokeBody = z.input<typeof RevokeBody>;

/** POST /admin/exam/invitations/revoke data. */
export const RevokeData = z.object({
  /** Invitations revoked now. */
  revoked: z.array(z.number().int()),
  /** Invitations left as they were: started already, revoked before, or not this exam's. */
  skipped: z.array(z.number().int()),
});
/** POST /admin/exam/invitations/revoke data. */
export type RevokeData = z.infer<typeof RevokeData>;

/** A template as staff write it: checked by the same rules that render it. */
const Template = z
  .string()
  .max(SMS_TEMPLATE_MAX)
  .superRefine((t, ctx) => {
    for (const problem of smsTemplateProblems(t)) ctx.addIssue({ code: 'custom', message: problem });
  });

/** An exam's texts. */
export const ExamSms = z.object({
  /** The invitation's template. */
  invitation_template: z.string(),
  /** The reminders' template. */
  reminder_template: z.string(),
  /** Minutes before the window opens when reminders go out, largest first. */
  reminder_minutes: z.array(z.number().int()),
});

/** GET /admin/exam/sms-settings data: the exam's texts (the defaults until staff save their own). */
export const ExamSmsData = ExamSms.extend({
  /** True while the exam uses the defaults. */
  is_default: z.boolean(),
});
/** GET /admin/exam/sms-settings data. */
export type ExamSmsData = z.infer<typeof ExamSmsData>;

/** POST /admin/exam/sms-settings body. */
export const ExamSmsBody = z.object({
  /** Exam id. */
  exam_id: Id,
  /** The invitation's template. */
  invitation_template: Template,
  /** The reminders' template. */
  reminder_template: Template,
  /** Minutes before the window opens (1 minute to 14 days), each once. */
  reminder_minutes: z
    .array(
      z
        .number()
        .int()
        .min(1)
        .max(14 * 1440),
    )
    .max(REMINDERS_MAX)
    .refine((m) => new Set(m).size === m.length, { message: 'each reminder time once' }),
});
/** POST /admin/exam/sms-settings body. */
export type ExamSmsBody = z.input<typeof ExamSmsBody>;

/** The states of a text: 'held' is a text a budget kept from going out (SMS_LIMITS says which). */
export const SMS_STATES = ['queued', 'sending', 'sent', 'failed', 'cancelled', 'held'] as const;
/** A text's state. */
export type SmsState = (typeof SMS_STATES)[number];
/** Why a text was sent. */
export const SMS_PURPOSES = ['invitation', 'reminder', 'resend'] as const;

/** GET /admin/exam/sms query. */
export const SmsListQuery = PageQuery.extend({
  /** Exam id. */
  exam_id: IdParam,
  /** Only texts in this state. */
  state: z.enum(SMS_STATES).optional(),
  /** Only texts to phones containing this. */
  phone: z.string().trim().max(20).optional(),
});
/** GET /admin/exam/sms query. */
export type SmsListQuery = z.input<typeof SmsListQuery>;

/** One text. */
export const SmsEntry = z.object({
  id: z.number().int(),
  /** Its invitation. */
  anid: z.number().int(),
  area_code: z.string(),
  phone: z.string(),
  purpose: z.enum(SMS_PURPOSES),
  state: z.enum(SMS_STATES),
  /** Delivery tries so far. */
  tries: z.number().int(),
  /** The gateway's last refusal, if any. */
  last_error: z.string().nullable(),
  created_at: EpochMs,
  sent_at: EpochMs.nullable(),
  /** When it is tried next (queued texts). */
  next_try_at: EpochMs,
  /** The budget that held it back (state 'held'), else null. */
  held_by: z.enum(SMS_LIMITS).nullable(),
});
/** One text. */
export type SmsEntry = z.infer<typeof SmsEntry>;

/** GET /admin/exam/sms data. */
export const SmsListData = z.object({
  /** One page, newest first. */
  list: z.array(SmsEntry),
  /** How many match the filters. */
  total: z.number().int(),
  /** How many of the exam's texts are in each state (filters aside). */
  counts: z.record(z.enum(SMS_STATES), z.number().int()),
});
/** GET /admin/exam/sms data. */
export type SmsListData = z.infer<typeof SmsListData>;
