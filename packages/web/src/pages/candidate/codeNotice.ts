import { SMS_RULES, type SendMsgData } from '@examhall/contract';
import type { MessageParams } from '../../i18n/format.js';
import type { MessageKey } from '../../i18n/index.js';

/** What the login form says once a code was asked for, and how long the resend button waits. */
export interface CodeNotice {
  /** The message: sent, or on its way in about `s` seconds when many ask at once. */
  key: Extract<MessageKey, 'login.codeSent' | 'login.codeQueued'>;
  params: MessageParams;
  /** Seconds before another code may be asked for (counted by the server from when this one goes out). */
  resendAfter: number;
  /** Seconds the message stays up: while the code is on its way, at least 3. */
  seconds: number;
}

/** The notice for a send-msg answer: a queued code says about when it arrives, and its life counts from then. */
export function codeNotice(data: SendMsgData): CodeNotice {
  const resendAfter = data.resend_after > 0 ? data.resend_after : SMS_RULES.resendIntervalMs / 1000;
  const delay = data.delay;
  const min = Math.round((data.expires_in - delay) / 60);
  if (delay > 0)
    return { key: 'login.codeQueued', params: { s: delay, min }, resendAfter, seconds: Math.max(3, delay) };
  return { key: 'login.codeSent', params: { min }, resendAfter, seconds: 3 };
}
