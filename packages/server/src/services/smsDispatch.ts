import type { SmsText } from '../sms/sender.js';
import type { SmsSender } from '../sms/sender.js';
import type { Db } from '../db/database.js';
import { InvitationRepository, type SmsRow } from '../repositories/invitations.js';
import type { InvitationTexts } from './invitationTexts.js';
import type { ServiceLog } from '../log.js';
import type { SmsPacer } from './smsPacing.js';

/** How long a sender holds the texts it took; past it, a text it never settled is sent again under its id. */
export const SEND_LEASE_MS = 60_000;
/** When a refused text is tried again, after its first, second... refusal; past the last it has failed. */
export const RETRY_DELAYS_MS: readonly number[] = [30_000, 2 * 60_000, 10 * 60_000, 30 * 60_000];
/** Invitations one reminder step handles. */
const REMINDER_STEP = 500;

/**
 * Sends the queued texts, paced: each run (once per period across the cluster) takes at most what login codes
 * leave of the provider's rate over its period (SmsPacer.textBudget), oldest first, and sends them. A refusal is retried later
 * (RETRY_DELAYS_MS) and recorded; a text whose sender died mid-send goes out again under the same message id.
 * Reminders are queued by `remind`, once per invitation and reminder time, for those who have not started.
 */
export class SmsDispatcher {
  constructor(
    private readonly db: Db,
    private readonly sender: SmsSender,
    private readonly texts: Pick<InvitationTexts, 'smsSettingsOf' | 'queueTexts'>,
    private readonly opts: { pacer: SmsPacer; clock: () => number; log: ServiceLog; leaseMs?: number },
  ) {}

  /** Sends what is due, within what login codes leave of the provider's rate over `periodMs`; answers how many were delivered. */
  async dispatch(periodMs: number): Promise<number> {
    const now = this.opts.clock();
    const budget = await this.opts.pacer.textBudget(now, periodMs);
    if (budget === 0) return 0;
    const lease = this.opts.leaseMs ?? SEND_LEASE_MS;
    const texts = await new InvitationRepository(this.db).claimDue(now, budget, now + lease);
    let delivered = 0;
    for (const text of texts) if (await this.sendOne(text)) delivered++;
    return delivered;
  }

  /** Sends one text and records the outcome. */
  private async sendOne(text: SmsRow): Promise<boolean> {
    const repo = new InvitationRepository(this.db);
    const message: SmsText = {
      purpose: text.purpose as SmsText['purpose'],
      area_code: text.area_code,
      phone: text.phone,
      text: text.body,
      message_id: `examhall-sms-${text.id}`,
    };
    try {
      await this.sender.send(message);
    } catch (err) {
      const delay = RETRY_DELAYS_MS[text.tries];
      const retryAt = delay === undefined ? null : this.opts.clock() + delay;
      await repo.markRefused(text.id, (err as Error).message || String(err), retryAt);
      this.opts.log.warn({ sms: text.id, tries: text.tries + 1, final: retryAt === null }, 'SMS refused');
      return false;
    }
    await repo.markSent(text.id, this.opts.clock());
    return true;
  }

  /**
   * Queues the reminders now due: for each published exam still open, per reminder time, one text
   * (reminder:<minutes>) to each standing invitation whose own window opens within that time, made before
   * the reminder's moment, that has not started; only the latest reminder due goes out (a day-before reminder
   * is not sent an hour before). A reminder whose moment passed while nobody ran this is still sent while the
   * window has not opened. A reminder a budget holds back is stored 'held' and not tried again. Answers how many
   * were queued to go out.
   */
  async remind(): Promise<number> {
    const now = this.opts.clock();
    const repo = new InvitationRepository(this.db);
    let queued = 0;
    for (const exam of await repo.openExams(now)) {
      const settings = await this.texts.smsSettingsOf(exam.id);
      const times = [...settings.reminder_minutes].sort((a, b) => b - a);
      for (const [i, minutes] of times.entries()) {
        const dedupeKey = `reminder:${minutes}`;
        const reminder = { dedupeKey, minutes, laterMinutes: times[i + 1] ?? null };
        for (let after = 0; ;) {
          const batch = await repo.dueForReminder(exam, reminder, now, after, REMINDER_STEP);
          if (batch.length === 0) break;
          queued += (
            await this.texts.queueTexts(
              this.db,
              { exam, template: settings.reminder_template, purpose: 'reminder', dedupeKey, staffId: null },
              batch,
            )
          ).sent;
          after = batch[batch.length - 1]!.id;
        }
      }
    }
    return queued;
  }
}
