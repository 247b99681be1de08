import { api, type ParsedBody, type ResendData, type RevokeData } from '@examhall/contract';
import type { Db } from '../db/database.js';
import { ExamEditorRepository } from '../repositories/examEditor.js';
import { InvitationRepository } from '../repositories/invitations.js';
import type { AccessService, StaffActor } from './access.js';
import type { AuditService } from './audit.js';
import { examInReach } from './examVersions.js';
import type { InvitationTexts } from './invitationTexts.js';
import type { SmsBudget } from './smsBudget.js';

/** What resends and revocations need. */
export interface InvitationChangeDeps {
  access: AccessService;
  audit: AuditService;
  /** Where the resent texts are queued. */
  texts: Pick<InvitationTexts, 'smsSettingsOf' | 'text' | 'store'>;
  /** The refusal of a resend every text of which a budget held back. */
  budget: Pick<SmsBudget, 'refusal'>;
  clock: () => number;
}

/** What staff do with invitations made: send their link again, revoke them before the candidate starts. */
export class InvitationChangeService {
  private readonly repo: ExamEditorRepository;

  constructor(
    private readonly db: Db,
    private readonly deps: InvitationChangeDeps,
  ) {
    this.repo = new ExamEditorRepository(db);
  }

  /**
   * POST /admin/exam/invitations/resend: each standing invitation gets its link again, within its budgets; those a
   * budget holds back are stored 'held'. When every text is held back the call answers 429 with the budget that
   * held the most (the held texts are kept all the same, so the console shows them).
   */
  async resend(actor: StaffActor, body: ParsedBody<typeof api.invitationsResend>): Promise<ResendData> {
    const exam = await examInReach(this.deps.access, this.repo, actor, api.invitationsResend, body.exam_id);
    const { texts } = this.deps;
    const template = (await texts.smsSettingsOf(exam.id)).invitation_template;
    const { tally, skipped } = await this.db.transaction().execute(async (trx) => {
      const repo = new InvitationRepository(trx);
      const contacts = (await repo.contactsById(exam.id, body.anids)).filter((c) => c.revoked_at === null);
      const rows = [];
      for (const c of contacts) {
        const n = await repo.countTexts(c.id, 'resend');
        rows.push(
          texts.text({ exam, template, purpose: 'resend', dedupeKey: `resend:${n + 1}`, staffId: actor.id }, c),
        );
      }
      const tally = await texts.store(trx, exam, rows);
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
    const exam = await examInReach(this.deps.access, this.repo, actor, api.invitationsRevoke, body.exam_id);
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
}
