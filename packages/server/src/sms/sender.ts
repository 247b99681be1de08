import type { FastifyBaseLogger } from 'fastify';

/** A login code. */
export interface SmsCode {
  purpose: 'login';
  /** Calling code. */
  area_code: string;
  /** National number. */
  phone: string;
  /** The code. */
  code: string;
}

/** A text to an invited candidate: the invitation, a reminder or a resend. */
export interface SmsText {
  purpose: 'invitation' | 'reminder' | 'resend';
  area_code: string;
  phone: string;
  /** The whole text, as the candidate reads it. */
  text: string;
  /**
   * The text's own id. A text whose sender died before it learned the outcome is sent again under the same
   * id, so a gateway that has it already must treat the repeat as delivered (the idempotency key SMS
   * providers take, e.g. an out id).
   */
  message_id: string;
}

/** A message to deliver. */
export type SmsMessage = SmsCode | SmsText;

/** Delivers SMS messages. */
export interface SmsSender {
  /** Delivers one message; throws when it could not. */
  send(message: SmsMessage): Promise<void>;
}

/** Prints the message to the log: the embedded default, for development and demos. */
export class ConsoleSmsSender implements SmsSender {
  constructor(private readonly log: FastifyBaseLogger) {}

  async send(m: SmsMessage): Promise<void> {
    const to = `+${m.area_code} ${m.phone}`;
    if (m.purpose === 'login') {
      this.log.info({ sms: { to, purpose: m.purpose } }, `SMS code for ${to}: ${m.code}`);
      return;
    }
    this.log.info({ sms: { to, purpose: m.purpose, id: m.message_id } }, `SMS to ${to}: ${m.text}`);
  }
}

/**
 * POSTs the message as JSON to a webhook that delivers it: `{phone, area_code, purpose, code}` for a login
 * code, `{phone, area_code, purpose, text, message_id}` for a text.
 */
export class WebhookSmsSender implements SmsSender {
  constructor(
    private readonly url: string,
    private readonly timeoutMs = 5_000,
  ) {}

  async send(m: SmsMessage): Promise<void> {
    const res = await fetch(this.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(m),
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    if (!res.ok) throw new Error(`SMS webhook answered ${res.status}`);
  }
}
