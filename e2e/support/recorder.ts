import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A local endpoint that keeps every body POSTed to it (SMS gateway, error reports, analytics). */
export interface Recorder {
  url: string;
  bodies: unknown[];
  /** Resolves with the first recorded body that `match` accepts, waiting up to `timeoutMs`. */
  waitFor: <T>(match: (body: unknown) => body is T, timeoutMs?: number) => Promise<T>;
  close: () => Promise<void>;
}

/** Starts a recorder on a free local port; `path` only shapes the URL handed out. */
export async function startRecorder(path = '/'): Promise<Recorder> {
  const bodies: unknown[] = [];
  const server: Server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      // Beacons from a page on another origin arrive without CORS; an answer is all they need.
      res.setHeader('access-control-allow-origin', '*');
      if (req.method !== 'POST') return void res.writeHead(204).end();
      try {
        bodies.push(JSON.parse(text));
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      } catch {
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}${path}`,
    bodies,
    async waitFor(match, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = bodies.find(match);
        if (found !== undefined) return found;
        if (Date.now() > deadline)
          throw new Error(`nothing matching arrived within ${timeoutMs} ms; got ${JSON.stringify(bodies)}`);
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
