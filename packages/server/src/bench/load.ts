/**
 * A small closed-loop HTTP load generator: each connection sends a request, waits for the whole answer,
 * then sends the next. It writes prebuilt request text to plain sockets, so on a 2-core machine the
 * client takes as little CPU from the server as it can.
 */
import net from 'node:net';

/** Figures of one run. */
export interface LoadFigures {
  /** Answers with a 2xx status per second. */
  perSecond: number;
  /** Latency percentiles, ms. */
  p50: number;
  p99: number;
  /** 2xx answers. */
  ok: number;
  /** Other answers and broken connections. */
  errors: number;
}

/**
 * Runs `connections` loops for `seconds`; `next` builds the full text (or bytes) of each request, and `answered`, when
 * given, hears each request with the status of its answer. A connection the server closes ends its loop.
 */
export async function runLoad(opts: {
  host: string;
  port: number;
  connections: number;
  seconds: number;
  next: () => string | Buffer;
  answered?: (request: string | Buffer, status: number) => void;
  /** Sends at most this many requests in all (the run ends sooner once they are answered). */
  count?: number;
}): Promise<LoadFigures> {
  const latencies: number[] = [];
  let ok = 0;
  let errors = 0;
  const end = performance.now() + opts.seconds * 1000;
  const started = performance.now();
  let sent = 0;

  const loop = () =>
    new Promise<void>((resolve) => {
      const socket = net.connect({ host: opts.host, port: opts.port });
      socket.setNoDelay(true);
      let buf: Buffer = Buffer.alloc(0);
      let sentAt = 0;
      let request: string | Buffer = '';
      const send = () => {
        if (performance.now() >= end || sent >= (opts.count ?? Number.POSITIVE_INFINITY)) {
          socket.end();
          return resolve();
        }
        sent += 1;
        sentAt = performance.now();
        request = opts.next();
        socket.write(request);
      };
      socket.on('connect', send);
      socket.on('error', () => {
        errors += 1;
        resolve();
      });
      socket.on('close', () => resolve());
      socket.on('data', (chunk: Buffer) => {
        buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
        for (;;) {
          const headEnd = buf.indexOf('\r\n\r\n');
          if (headEnd < 0) return;
          const head = buf.subarray(0, headEnd).toString('latin1');
          const length = Number(/content-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
          if (buf.length < headEnd + 4 + length) return;
          const status = Number(head.slice(9, 12));
          if (status >= 200 && status < 300) ok += 1;
          else errors += 1;
          latencies.push(performance.now() - sentAt);
          opts.answered?.(request, status);
          buf = buf.subarray(headEnd + 4 + length);
          send();
        }
      });
    });

  await Promise.all(Array.from({ length: opts.connections }, loop));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) =>
    Math.round((latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? 0) * 10) / 10;
  return { perSecond: Math.round(ok / seconds), p50: pct(0.5), p99: pct(0.99), ok, errors };
}

/** The text of one HTTP/1.1 request on a kept-alive connection. */
export function requestText(method: string, path: string, host: string, body?: string): string {
  const head = `${method} ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: keep-alive\r\n`;
  if (body === undefined) return `${head}\r\n`;
  return `${head}Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}
