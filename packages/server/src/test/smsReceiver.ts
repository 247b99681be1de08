/** A real HTTP endpoint that receives what the webhook SMS provider posts. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One received message: a login code, or a text with its id. */
export interface ReceivedSms {
  phone: string;
  area_code: string;
  purpose: string;
  code?: string;
  text?: string;
  message_id?: string;
}

/** The receiver: its URL, what it got, and a switch to make it fail. */
export interface SmsReceiver {
  url: string;
  messages: ReceivedSms[];
  /** The latest code sent to a phone. */
  lastCode(phone: string): string;
  /** Answer 500 to the next posts while true. */
  failing: boolean;
  close(): Promise<void>;
}

/** Starts a receiver on a free loopback port. */
export async function startSmsReceiver(): Promise<SmsReceiver> {
  const receiver: Omit<SmsReceiver, 'url' | 'close'> = {
    messages: [],
    failing: false,
    lastCode(phone: string) {
      const found = [...this.messages].reverse().find((m) => m.phone === phone && m.code !== undefined);
      if (!found?.code) throw new Error(`no SMS code was sent to ${phone}`);
      return found.code;
    },
  };
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      if (receiver.failing) {
        res.writeHead(500).end();
        return;
      }
      receiver.messages.push(JSON.parse(body) as ReceivedSms);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(receiver, {
    url: `http://127.0.0.1:${port}/sms`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
