import type { CallDef } from '@examhall/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Lease } from '../ratelimit/limiter.js';
import { HEARTBEAT_MS, type SseStream } from '../eventStream.js';
import { NO_STORE } from './caching.js';
import type { RouteContext } from './context.js';

/** A client that lets this much pile up unread is cut off rather than buffered without end. */
const MAX_BUFFERED_BYTES = 1024 * 1024;

/** Starts sending on an open stream; returns what to do when it closes. */
export type StreamStart<C extends CallDef> = (stream: SseStream<z.input<C['data']>>) => (() => void) | void;

/**
 * Checks the request and prepares the stream. Everything that can fail fails here, before the response
 * starts, so that it leaves as the JSON envelope; the stream starts when the returned function is called.
 */
export type StreamOpener<C extends CallDef> = (ctx: RouteContext<C>) => Promise<StreamStart<C>>;

const registries = new WeakMap<FastifyInstance, Set<SseStream<unknown>>>();

/** The streams open on an app instance; they are ended when the app closes, which would otherwise wait for them. */
export function openStreams(app: FastifyInstance): Set<SseStream<unknown>> {
  let set = registries.get(app);
  if (!set) {
    const streams = new Set<SseStream<unknown>>();
    set = streams;
    registries.set(app, streams);
    app.addHook('preClose', async () => {
      for (const s of [...streams]) s.close();
    });
  }
  return set;
}

/** Answers `request` with an event stream and hands it to `start`; the stream holds `lease` while it is open. */
export function startSse<C extends CallDef>(
  request: FastifyRequest,
  reply: FastifyReply,
  registry: Set<SseStream<unknown>>,
  start: StreamStart<C>,
  lease?: Lease,
): void {
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    // Like every other answer of a call with a token (http/caching.ts): a stream is one caller's.
    'cache-control': `${NO_STORE}, no-transform`,
    connection: 'keep-alive',
    // Tells nginx-style proxies not to hold events back in a buffer.
    'x-accel-buffering': 'no',
  });
  const beats: (() => void)[] = [];
  let closed = false;
  let cleanup: (() => void) | void = undefined;
  const write = (text: string) => {
    if (closed) return;
    raw.write(text);
    if (raw.writableLength > MAX_BUFFERED_BYTES) {
      request.log.warn('event stream reader too slow; closing');
      stream.close();
    }
  };
  const finish = () => {
    if (closed) return;
    closed = true;
    clearInterval(timer);
    registry.delete(stream);
    lease?.release().catch((err: unknown) => request.log.error({ err }, 'event stream lease release failed'));
    try {
      cleanup?.();
    } catch (err) {
      request.log.error({ err }, 'event stream cleanup failed');
    }
  };
  const stream: SseStream<z.input<C['data']>> = {
    send(event) {
      write(`data: ${JSON.stringify(event)}\n\n`);
    },
    onBeat(fn) {
      beats.push(fn);
    },
    close() {
      finish();
      raw.end();
    },
    get closed() {
      return closed;
    },
  };
  const timer = setInterval(() => {
    lease?.renew().catch((err: unknown) => request.log.error({ err }, 'event stream lease renewal failed'));
    write(': ping\n\n');
    for (const fn of beats) fn();
  }, HEARTBEAT_MS);
  timer.unref();
  registry.add(stream);
  // The response's 'close' fires when the client goes away as well as when the server ends it.
  raw.on('close', finish);
  // The client may have gone while the stream was being prepared: its 'close' has already fired.
  if (raw.destroyed || raw.socket === null || raw.socket.destroyed) finish();
  // A comment first: the client sees the response start even before the first event.
  write(': open\n\n');
  try {
    cleanup = start(stream);
  } catch (err) {
    request.log.error({ err }, 'event stream failed to start');
    stream.close();
  }
  if (closed) cleanup?.();
}
