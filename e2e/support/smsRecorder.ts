import { startRecorder } from './recorder.js';

/** One login code the server asked the webhook to deliver. */
export interface RecordedSms {
  phone: string;
  area_code: string;
  code: string;
  purpose: string;
}

/** One text to an invited candidate (invitation, reminder or resend) the server asked the webhook to deliver. */
export interface RecordedText {
  phone: string;
  area_code: string;
  purpose: string;
  text: string;
  message_id: string;
}

/** A stand-in SMS gateway: it records what the server's webhook provider posts. */
export interface SmsRecorder {
  url: string;
  messages: () => RecordedSms[];
  /** The invitation texts received so far, oldest first. */
  texts: () => RecordedText[];
  /**
   * The latest code sent to `phone`, waiting up to `timeoutMs` for it to arrive; with `after`, for a code past the
   * first `after` ones (a new login's, not an earlier one's).
   */
  waitForCode: (phone: string, timeoutMs?: number, after?: number) => Promise<string>;
  /** How many codes `phone` has been sent. */
  codesSent: (phone: string) => number;
  close: () => Promise<void>;
}

function isSms(body: unknown): body is RecordedSms {
  const b = body as Partial<RecordedSms> | null;
  return typeof b === 'object' && b !== null && typeof b.phone === 'string' && typeof b.code === 'string';
}

function isText(body: unknown): body is RecordedText {
  const b = body as Partial<RecordedText> | null;
  return typeof b === 'object' && b !== null && typeof b.phone === 'string' && typeof b.text === 'string';
}

/** Starts the SMS recorder on a free local port. */
export async function startSmsRecorder(): Promise<SmsRecorder> {
  const recorder = await startRecorder('/sms');
  const messages = () => recorder.bodies.filter(isSms);
  return {
    url: recorder.url,
    messages,
    texts: () => recorder.bodies.filter(isText),
    codesSent: (phone) => messages().filter((m) => m.phone === phone).length,
    async waitForCode(phone, timeoutMs = 10_000, after = 0) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const sent = messages().filter((m) => m.phone === phone);
        const found = sent.length > after ? sent.at(-1) : undefined;
        if (found) return found.code;
        if (Date.now() > deadline)
          throw new Error(`no SMS for ${phone} within ${timeoutMs} ms (got ${messages().length} in all)`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    close: recorder.close,
  };
}
