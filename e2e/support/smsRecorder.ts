import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One SMS the server asked the webhook to deliver. */
export interface RecordedSms {
  phone: string;
  area_code: string;
  code: string;
  purpose: string;
}

/** A stand-in SMS gateway: it records what the server's webhook provider posts. */
export interface SmsRecorder {
  url: string;
  messages: RecordedSms[];
  /** The latest code sent to `phone`, waiting up to `timeoutMs` for it to arrive. */
  waitForCode: (phone: string, after?: number, timeoutMs?: number) => Promise<string>;
  close: () => Promise<void>;
}

/** Starts the recorder on a free local port. */
export async function startSmsRecorder(): Promise<SmsRecorder> {
  const messages: RecordedSms[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      try {
        const m = JSON.parse(body) as Partial<RecordedSms>;
        messages.push({
          phone: String(m.phone ?? ''),
          area_code: String(m.area_code ?? ''),
          code: String(m.code ?? ''),
          purpose: String(m.purpose ?? ''),
        });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      } catch {
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/sms`,
    messages,
    async waitForCode(phone, after = 0, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = messages.slice(after).filter((m) => m.phone === phone).at(-1);
        if (found) return found.code;
        if (Date.now() > deadline) throw new Error(`no SMS for ${phone} within ${timeoutMs} ms (got ${messages.length} in all)`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
