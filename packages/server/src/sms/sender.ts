import type { FastifyBaseLogger } from 'fastify';

/** A message to deliver. */
export interface SmsMessage {
  /** Calling code. */
  area_code: string;
  /** National number. */
  phone: string;
  /** The code. */
  code: string;
  /** Why it is sent. */
  purpose: 'login';
}

/** Delivers SMS codes. */
export interface SmsSender {
  /** Delivers one message; throws when it could not. */
  send(message: SmsMessage): Promise<void>;
}

/** Prints the code to the log: the embedded default, for development and demos. */
export class ConsoleSmsSender implements SmsSender {
  constructor(private readonly log: FastifyBaseLogger) {}

  async send(m: SmsMessage): Promise<void> {
    this.log.info(
      { sms: { to: `+${m.area_code} ${m.phone}`, purpose: m.purpose } },
      `SMS code for +${m.area_code} ${m.phone}: ${m.code}`,
    );
  }
}

/** POSTs `{phone, code, purpose}` as JSON to a webhook that delivers it. */
export class WebhookSmsSender implements SmsSender {
  constructor(
    private readonly url: string,
    private readonly timeoutMs = 5_000,
  ) {}

  async send(m: SmsMessage): Promise<void> {
    const res = await fetch(this.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ phone: m.phone, area_code: m.area_code, code: m.code, purpose: m.purpose }),
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    if (!res.ok) throw new Error(`SMS webhook answered ${res.status}`);
  }
}
