import {
  api,
  SMS_STATES,
  type CallDef,
  type ExamSmsData,
  type ParsedBody,
  type ParsedQuery,
  type SmsLimit,
  type SmsListData,
  type SmsState,
} from '@examhall/contract';
import type { Db } from '../db/database.js';
import { ExamEditorRepository } from '../repositories/examEditor.js';
import type { ExamRow } from '../repositories/exams.js';
import { InvitationRepository } from '../repositories/invitations.js';
import type { AccessService, StaffActor } from './access.js';
import type { AuditService } from './audit.js';
import { examInReach } from './examVersions.js';
import type { InvitationTexts } from './invitationTexts.js';

/** What an exam's texts need. */
export interface ExamSmsDeps {
  access: AccessService;
  audit: AuditService;
  /** The exam's templates as texts read them. */
  texts: Pick<InvitationTexts, 'smsSettingsOf'>;
  clock: () => number;
}

/** Each exam's texts: its templates and reminder times, and the texts stored with their delivery. */
export class ExamSmsService {
  constructor(
    private readonly db: Db,
    private readonly deps: ExamSmsDeps,
  ) {}

  /** The exam a staff call names, after the access check. */
  private exam(actor: StaffActor, call: CallDef, examId: number): Promise<ExamRow> {
    return examInReach(this.deps.access, new ExamEditorRepository(this.db), actor, call, examId);
  }

  /** GET /admin/exam/sms-settings. */
  async smsSettings(actor: StaffActor, examId: number): Promise<ExamSmsData> {
    await this.exam(actor, api.examSms, examId);
    return this.deps.texts.smsSettingsOf(examId);
  }

  /** POST /admin/exam/sms-settings. */
  async saveSmsSettings(actor: StaffActor, body: ParsedBody<typeof api.examSmsSave>): Promise<ExamSmsData> {
    const exam = await this.exam(actor, api.examSmsSave, body.exam_id);
    const before = await this.deps.texts.smsSettingsOf(exam.id);
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
    return this.deps.texts.smsSettingsOf(exam.id);
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
