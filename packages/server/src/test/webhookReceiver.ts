/** A real HTTP endpoint that receives webhooks, checks their signatures with its own HMAC and answers as told. */
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as it arrived. */
export interface ReceivedHook {
  headers: http.IncomingHttpHeaders;
  body: string;
  /** Whether the signature header is the HMAC-SHA256 of `timestamp.body` with the receiver's secret. */
  verified: boolean;
  /** The status answered. */
  answered: number;
}

/** The receiver: its URL, what it got, and how it answers. */
export interface HookReceiver {
  url: string;
  received: ReceivedHook[];
  /** Statuses to answer the next requests with, in order; 200 once they run out. */
  answers: number[];
  /** While true, requests get no answer at all (the connection is left open). */
  hanging: boolean;
  /** The secret it verifies with. */
  secret: string;
  close(): Promise<void>;
}

/** The signature a receiver expects, computed here independently of the server's code. */
export function expectedSignature(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** Starts a receiver on a free loopback port that verifies with `secret`. */
export async function startHookReceiver(secret: string): Promise<HookReceiver> {
  const state = { received: [] as ReceivedHook[], answers: [] as number[], hanging: false, secret };
  const held = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      if (state.hanging) {
        held.add(res);
        return;
      }
      const timestamp = String(req.headers['x-examhall-timestamp'] ?? '');
      const signature = String(req.headers['x-examhall-signature'] ?? '');
      const answered = state.answers.shift() ?? 200;
      state.received.push({
        headers: req.headers,
        body,
        verified: signature === expectedSignature(state.secret, timestamp, body),
        answered,
      });
      res.writeHead(answered).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}/hooks/examhall`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of held) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
