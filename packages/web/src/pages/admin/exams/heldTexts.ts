/** How the console words texts the budgets held back: the reasons, and what a resend did. */
import { SMS_LIMITS, type HeldBy, type ResendData, type SmsLimit } from '@examhall/contract';
import type { MessageKey } from '../../../i18n/index.js';
import type { MessageParams } from '../../../i18n/format.js';

type Translate = (key: MessageKey, params?: MessageParams) => string;

/** The text of the budget that held a text back. */
export function limitText(t: Translate, limit: SmsLimit): string {
  return t(`console.sms.limit.${limit}`);
}

/** Each budget that held texts back with how many, e.g. "重发间隔未到 2 条；本场笔试今日短信额度已满 1 条". */
export function heldReasons(t: Translate, heldBy: HeldBy): string {
  return SMS_LIMITS.filter((l) => heldBy[l] > 0)
    .map((l) => t('console.sms.heldCount', { reason: limitText(t, l), n: heldBy[l] }))
    .join(t('console.sms.reasonJoin'));
}

/** What a resend did, as the console says it: a warning when budgets held some texts back, naming why. */
export function resendMessage(t: Translate, r: ResendData): { held: boolean; text: string } {
  if (r.held === 0)
    return { held: false, text: t('console.invitations.resent', { n: r.queued, skipped: r.skipped.length }) };
  return {
    held: true,
    text: t('console.invitations.resentHeld', {
      n: r.queued,
      held: r.held,
      reasons: heldReasons(t, r.held_by),
      skipped: r.skipped.length,
    }),
  };
}
